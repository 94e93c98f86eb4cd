import { spawnSync } from 'node:child_process';
import { createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { childEnv } from '../helpers/child-env.ts';

const SECRET = 'token-cli-secret-0123456789abcdef';
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['core/cli/token.ts', ...args], { cwd: projectRoot, env: { ...childEnv(), ...env }, encoding: 'utf8' });

describe('npm run token', () => {
  it('prints an admin token for the configured secret, valid 12 hours', () => {
    const result = run(['--admin', '--sub', 'ops-lead'], { Jwt__Secret: SECRET });
    expect(result.status).toBe(0);
    const claims = createVerifier({ key: SECRET, algorithms: ['HS256'] })(result.stdout.trim()) as Record<string, number | string>;
    expect(claims).toMatchObject({ sub: 'ops-lead', role: 'admin' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(12 * 3600);
  });

  it('prints a user token without --admin, for the hours asked', () => {
    const claims = createVerifier({ key: SECRET, algorithms: ['HS256'] })(
      run(['--sub', 'someone', '--hours', '2'], { Jwt__Secret: SECRET }).stdout.trim(),
    ) as Record<string, number | string>;
    expect(claims.role).toBeUndefined();
    expect(Number(claims.exp) - Number(claims.iat)).toBe(2 * 3600);
  });

  it.each([
    [['--admin', '--sub', 'ops'], {}, /Jwt__Secret is not set/],
    [['--admin'], { Jwt__Secret: SECRET }, /--sub <name> is required/],
    [['--sub', 'x', '--hours', '9999'], { Jwt__Secret: SECRET }, /--hours must be a whole number from 1 to 720/],
    [['--nonsense'], { Jwt__Secret: SECRET }, /Unknown option '--nonsense'/],
  ] as const)('refuses %j with a message and exit code 2', (args, env, message) => {
    const result = run([...args], { ...env });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('--help says how to use it and writes nothing else', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run token -- --sub <name> \[--admin\]/);
  });
});
