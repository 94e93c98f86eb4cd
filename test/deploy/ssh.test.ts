import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deployScript,
  fakeSshScript,
  freePort,
  hasCommand,
  makeArtifact,
  makeTempDir,
  readiness,
  runScript,
  stopService,
  supervisorScript,
} from './helpers.ts';

/**
 * The SSH target. There is no sshd here: `--ssh-cmd` puts
 * test/deploy/fixtures/fake-ssh.sh in the place of ssh, which records its
 * arguments and the known_hosts file it was given, then runs the remote
 * command locally, so the whole path (host key check, stream, remote run)
 * is exercised except the network.
 */
describe('deploy.sh over SSH', () => {
  let work: string;
  let base: string;
  let sshLog: string;
  let hostKey: string;
  let clientKey: string;

  beforeEach(() => {
    work = makeTempDir('np-ssh-');
    base = path.join(work, 'remote-base');
    mkdirSync(base);
    sshLog = path.join(work, 'ssh.log');
    // Throwaway keys made for the test: one plays the host key, one the deploy key.
    execFileSync('ssh-keygen', ['-t', 'ed25519', '-N', '', '-q', '-C', 'host', '-f', path.join(work, 'host_key')]);
    execFileSync('ssh-keygen', ['-t', 'ed25519', '-N', '', '-q', '-C', 'deploy', '-f', path.join(work, 'client_key')]);
    hostKey = readFileSync(path.join(work, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    clientKey = readFileSync(path.join(work, 'client_key'), 'utf8');
  });

  afterEach(() => {
    stopService(base);
    rmSync(work, { recursive: true, force: true });
  });

  const sshEnv = (extra: Record<string, string> = {}) => ({
    FAKE_SSH_LOG: sshLog,
    NP_NODE: process.execPath,
    VPS_SSH_KNOWN_HOSTS: '',
    VPS_SSH_KEY: '',
    VPS_PORT: '',
    ...extra,
  });
  const sshCalls = () =>
    existsSync(sshLog)
      ? readFileSync(sshLog, 'utf8')
          .split('--\n')
          .filter(Boolean)
          .map((call) => call.trimEnd().split('\n'))
      : [];

  it('aborts before connecting when the key scan of an unset VPS_SSH_KNOWN_HOSTS yields no key', async () => {
    const scanner = path.join(work, 'empty-keyscan.sh');
    writeFileSync(scanner, '#!/usr/bin/env bash\necho "# 127.0.0.1:2222 SSH-2.0-OpenSSH"\nexit 0\n');
    chmodSync(scanner, 0o755);
    const artifact = makeArtifact(work, 'a', 'ready');
    const result = await runScript(
      deployScript,
      [
        '--artifact',
        artifact,
        '--commit',
        'abcdef1',
        '--ssh',
        'deploy@127.0.0.1',
        '--port',
        '2222',
        '--keyscan-cmd',
        scanner,
        '--ssh-cmd',
        fakeSshScript,
        '--base',
        base,
      ],
      sshEnv(),
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('key scan of [127.0.0.1]:2222 yielded no key; refusing to connect');
    expect(sshCalls()).toEqual([]);
    expect(existsSync(path.join(base, 'releases'))).toBe(false);
  });

  it.skipIf(!hasCommand('ssh-keyscan'))('aborts before connecting when ssh-keyscan finds nothing on a closed loopback port', async () => {
    const closed = await freePort();
    const artifact = makeArtifact(work, 'a', 'ready');
    // The port comes from VPS_PORT here, as in CI.
    const result = await runScript(
      deployScript,
      ['--artifact', artifact, '--commit', 'abcdef1', '--ssh', 'deploy@127.0.0.1', '--ssh-cmd', fakeSshScript, '--base', base],
      sshEnv({ VPS_PORT: String(closed) }),
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`key scan of [127.0.0.1]:${closed} yielded no key`);
    expect(sshCalls()).toEqual([]);
  });

  it('aborts before connecting when VPS_SSH_KNOWN_HOSTS has no key for the host and port', async () => {
    const artifact = makeArtifact(work, 'a', 'ready');
    for (const line of [`[127.0.0.1]:2223 ${hostKey}`, `127.0.0.1 ${hostKey}`, `[10.1.2.3]:2222 ${hostKey}`]) {
      const result = await runScript(
        deployScript,
        ['--artifact', artifact, '--commit', 'abcdef1', '--ssh', 'deploy@127.0.0.1', '--port', '2222', '--ssh-cmd', fakeSshScript, '--base', base],
        sshEnv({ VPS_SSH_KNOWN_HOSTS: line }),
      );
      expect(result.code, line).toBe(4);
      expect(result.stderr).toContain('VPS_SSH_KNOWN_HOSTS has no key for [127.0.0.1]:2222; refusing to connect');
    }
    expect(sshCalls()).toEqual([]);
  });

  it('deploys through ssh with StrictHostKeyChecking=yes, the given known_hosts and the key from VPS_SSH_KEY', async () => {
    const port = await freePort();
    const knownHosts = `# deploy host\n[127.0.0.1]:2222 ${hostKey}`;
    const artifact = makeArtifact(work, 'a', 'ready');
    const result = await runScript(
      deployScript,
      [
        '--artifact',
        artifact,
        '--commit',
        'ABCDEF0123',
        '--timestamp',
        '20250101000001',
        '--ssh',
        'deploy@127.0.0.1',
        '--ssh-cmd',
        fakeSshScript,
        '--base',
        base,
        '--restart-cmd',
        `bash ${supervisorScript} "$DEPLOY_BASE" ${port}`,
        '--active-cmd',
        '',
        '--ready-url',
        `http://127.0.0.1:${port}/health/ready`,
        '--install-cmd',
        'true',
        // Up to 60 s for the release's process to answer: once, on a clean-clone run, 100 tries 0.1 s apart were not enough.
        '--attempts',
        '600',
        '--interval',
        '0.1',
        '--timeout',
        '1',
      ],
      sshEnv({ VPS_PORT: '2222', VPS_SSH_KNOWN_HOSTS: knownHosts, VPS_SSH_KEY: clientKey }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('host key of [127.0.0.1]:2222: from VPS_SSH_KNOWN_HOSTS');
    expect(result.stdout).toContain('deployed 20250101000001-abcdef0');

    const calls = sshCalls();
    expect(calls).toHaveLength(1);
    const args = calls[0];
    const option = (name: string) => args.find((arg, i) => args[i - 1] === '-o' && arg.startsWith(`${name}=`));
    expect(args.slice(0, 2)).toEqual(['-p', '2222']);
    expect(option('StrictHostKeyChecking')).toBe('StrictHostKeyChecking=yes');
    expect(option('BatchMode')).toBe('BatchMode=yes');
    expect(option('GlobalKnownHostsFile')).toBe('GlobalKnownHostsFile=/dev/null');
    expect(option('IdentitiesOnly')).toBe('IdentitiesOnly=yes');
    expect(option('UserKnownHostsFile')).toMatch(/^UserKnownHostsFile=\/.+\/known_hosts$/);
    expect(readFileSync(`${sshLog}.known_hosts`, 'utf8')).toBe(`${knownHosts}\n`);
    expect(args).toContain('deploy@127.0.0.1');
    const identity = args[args.indexOf('-i') + 1];
    expect(identity).toMatch(/id_key$/);
    // Temporary files (key, known_hosts) are gone once the script ends.
    expect(existsSync(identity)).toBe(false);
    // The remote side ran the same script with --local on the base folder.
    expect(args.at(-1)).toContain(`'--local' '${base}'`);
    expect(readlinkSync(path.join(base, 'current'))).toBe('releases/20250101000001-abcdef0');
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'a' });
  }, 60_000);

  it('uses the key scan result when VPS_SSH_KNOWN_HOSTS is unset, and passes the remote exit code through', async () => {
    const scanner = path.join(work, 'keyscan.sh');
    writeFileSync(scanner, `#!/usr/bin/env bash\necho "# $*"\necho "127.0.0.1 ${hostKey}"\n`);
    chmodSync(scanner, 0o755);
    const artifact = makeArtifact(work, 'a', 'ready');
    const result = await runScript(
      deployScript,
      [
        '--artifact',
        artifact,
        '--commit',
        'abcdef1',
        '--ssh',
        'deploy@127.0.0.1',
        '--keyscan-cmd',
        scanner,
        '--ssh-cmd',
        fakeSshScript,
        '--base',
        base,
        '--install-cmd',
        'exit 9',
      ],
      sshEnv(),
    );
    expect(result.stdout).toContain('host key of 127.0.0.1: from the key scan');
    expect(readFileSync(`${sshLog}.known_hosts`, 'utf8')).toContain('# -p 22 -T 10 127.0.0.1');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('installing dependencies failed; current unchanged');
  });

  it('prints the ssh command on a dry run and changes nothing', async () => {
    const artifact = makeArtifact(work, 'a', 'ready');
    const result = await runScript(
      deployScript,
      ['--dry-run', '--artifact', artifact, '--commit', 'abcdef1', '--ssh', 'deploy@127.0.0.1', '--port', '2222', '--ssh-cmd', fakeSshScript],
      sshEnv({ VPS_SSH_KNOWN_HOSTS: `[127.0.0.1]:2222 ${hostKey}` }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ssh: .* -p 2222 -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=\S+known_hosts/);
    expect(result.stdout).toContain("'--local' '/srv/notification-pipeline'");
    expect(result.stdout).toContain('attempts=30 interval=2s timeout=2s');
    expect(sshCalls()).toEqual([]);
  });

  it('rolls back by hand over ssh', async () => {
    const port = await freePort();
    const common = [
      '--ssh',
      'deploy@127.0.0.1',
      '--ssh-cmd',
      fakeSshScript,
      '--base',
      base,
      '--restart-cmd',
      `bash ${supervisorScript} "$DEPLOY_BASE" ${port}`,
      '--active-cmd',
      '',
      '--ready-url',
      `http://127.0.0.1:${port}/health/ready`,
      '--install-cmd',
      'true',
      '--attempts',
      '600',
      '--interval',
      '0.1',
      '--timeout',
      '1',
    ];
    const env = sshEnv({ VPS_SSH_KNOWN_HOSTS: `127.0.0.1 ${hostKey}` });
    for (const [label, stamp] of [
      ['a', '20250101000001'],
      ['b', '20250101000002'],
    ]) {
      const artifact = makeArtifact(work, label, 'ready');
      const result = await runScript(deployScript, ['--artifact', artifact, '--commit', 'abcdef1', '--timestamp', stamp, ...common], env);
      expect(result.code, result.stderr).toBe(0);
    }
    const back = await runScript(deployScript, ['--rollback', ...common], env);
    expect(back.code, back.stderr).toBe(0);
    expect(readlinkSync(path.join(base, 'current'))).toBe('releases/20250101000001-abcdef1');
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'a' });
  }, 60_000);
});
