import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deployScript,
  freePort,
  makeArtifact,
  makeTempDir,
  readiness,
  runScript,
  stopService,
  supervisorScript,
  type ReleaseKind,
  type RunResult,
} from './helpers.ts';

/**
 * The deploy script against a local target folder, with the test supervisor
 * (test/deploy/fixtures/supervisor.sh) standing in for systemd: it starts the
 * release's config/deploy/start.sh on a free port, as the unit does.
 */
describe('deploy.sh on a local target', () => {
  let work: string;
  let base: string;
  let port: number;
  let stamp: number;

  beforeEach(async () => {
    work = makeTempDir('np-deploy-');
    base = path.join(work, 'target');
    mkdirSync(base);
    port = await freePort();
    stamp = 20250101000000;
  });

  afterEach(() => {
    stopService(base);
    rmSync(work, { recursive: true, force: true });
  });

  const releases = () => readdirSync(path.join(base, 'releases')).sort();
  const current = () => readlinkSync(path.join(base, 'current'));
  const servicePid = () => readFileSync(path.join(base, 'service.pid'), 'utf8').trim();

  interface DeployOptions {
    commit?: string;
    timestamp?: string;
    attempts?: number;
    restartCmd?: string;
    installCmd?: string;
    extra?: string[];
  }

  const restartCmd = () => `bash ${supervisorScript} ${base} ${port}`;
  const commonArgs = (options: DeployOptions) => [
    '--local',
    base,
    '--restart-cmd',
    options.restartCmd ?? restartCmd(),
    // Fails when the supervisor's process group is gone: what `systemctl is-active` tells.
    '--active-cmd',
    'kill -0 -- "-$(cat "$DEPLOY_BASE/service.pid")"',
    '--ready-url',
    `http://127.0.0.1:${port}/health/ready`,
    '--install-cmd',
    options.installCmd ?? 'true',
    '--attempts',
    String(options.attempts ?? 100),
    '--interval',
    '0.1',
    '--timeout',
    '1',
    ...(options.extra ?? []),
  ];

  /** Deploys a fresh artifact of `kind`; release timestamps go up by one second per deploy. */
  async function deploy(label: string, kind: ReleaseKind, options: DeployOptions = {}): Promise<RunResult & { name: string }> {
    const artifact = makeArtifact(work, label, kind);
    stamp += 1;
    const timestamp = options.timestamp ?? String(stamp);
    const commit = options.commit ?? `${label.padEnd(7, '0').replace(/[^0-9a-f]/g, 'a')}99aa`;
    const result = await runScript(deployScript, ['--artifact', artifact, '--commit', commit, '--timestamp', timestamp, ...commonArgs(options)], {
      NP_NODE: process.execPath,
    });
    return { ...result, name: `${timestamp}-${commit.slice(0, 7)}` };
  }

  const rollback = (extra: string[] = []) => runScript(deployScript, ['--rollback', ...extra, ...commonArgs({ attempts: 100 })], { NP_NODE: process.execPath });

  it('has the contract defaults: 30 attempts 2 s apart, 2 s per call, 5 releases kept', async () => {
    const help = await runScript(deployScript, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('readiness attempts (default 30)');
    expect(help.stdout).toContain('seconds between attempts (default 2)');
    expect(help.stdout).toContain('seconds per attempt (default 2)');
    expect(help.stdout).toContain('(default 5; current always kept)');

    const artifact = makeArtifact(work, 'a', 'ready');
    const plan = await runScript(deployScript, [
      '--dry-run',
      '--local',
      base,
      '--artifact',
      artifact,
      '--commit',
      'ABCDEF0123456789',
      '--timestamp',
      '20250102030405',
    ]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`releases/20250102030405-abcdef0`);
    expect(plan.stdout).toContain('ready: http://127.0.0.1:5000/health/ready attempts=30 interval=2s timeout=2s');
    expect(plan.stdout).toContain('install: npm ci --omit=dev --no-audit --no-fund');
    expect(plan.stdout).toContain('restart: sudo -n /usr/bin/systemctl restart notification-pipeline.service');
    expect(plan.stdout).toContain('active check: sudo -n /usr/bin/systemctl is-active notification-pipeline.service');
    expect(plan.stdout).toContain('keep: 5 releases');
    expect(existsSync(path.join(base, 'releases'))).toBe(false); // a dry run changes nothing
  });

  it('rejects bad input before touching the target', async () => {
    const artifact = makeArtifact(work, 'a', 'ready');
    const cases: string[][] = [
      ['--artifact', artifact, '--commit', 'xyz', '--local', base],
      ['--artifact', path.join(work, 'missing.tar.gz'), '--commit', 'abcdef1', '--local', base],
      ['--artifact', artifact, '--commit', 'abcdef1'],
      ['--artifact', artifact, '--commit', 'abcdef1', '--local', base, '--timestamp', '2025-01-01'],
      ['--artifact', artifact, '--commit', 'abcdef1', '--local', base, '--attempts', '0'],
      ['--artifact', artifact, '--commit', 'abcdef1', '--local', base, '--bogus'],
    ];
    for (const args of cases) {
      const result = await runScript(deployScript, args);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(existsSync(path.join(base, 'releases'))).toBe(false);
  });

  it('makes a good release current and ready, installed with the default npm ci, started through start.sh', async () => {
    const result = await deploy('a1', 'ready', { installCmd: 'npm ci --omit=dev --no-audit --no-fund', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' });
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(result.name).toMatch(/^\d{14}-[0-9a-f]{7}$/);
    expect(result.name).toBe('20250101000001-a1b2c3d');
    expect(current()).toBe(`releases/${result.name}`);
    expect(lstatSync(path.join(base, 'current')).isSymbolicLink()).toBe(true);
    expect(releases()).toEqual([result.name]);
    const release = path.join(base, 'releases', result.name);
    expect(readFileSync(path.join(release, 'REVISION'), 'utf8').trim()).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f9012345678');
    expect(readlinkSync(path.join(release, 'data'))).toBe('../../shared/data');
    const answer = await readiness(port);
    expect(answer.status).toBe(200);
    expect(answer.label).toBe('a1');
    expect(answer.execArgv?.some((arg) => /^--max-old-space-size=\d+$/.test(arg))).toBe(true);
  }, 60_000);

  for (const [kind, what] of [
    ['crash', 'fails to start'],
    ['unready', 'never gets ready'],
    ['no-start-command', 'has no start command'],
  ] as const) {
    it(`rolls back a release that ${what}; the previous one serves again`, async () => {
      const good = await deploy('a1', 'ready');
      expect(good.code).toBe(0);
      const bad = await deploy('b2', kind, { attempts: 30 });
      expect(bad.code, `${bad.stdout}\n${bad.stderr}`).toBe(1);
      expect(bad.stderr).toContain(`release ${bad.name} failed`);
      expect(bad.stdout).toContain(`rolled back: ${good.name} is current and ready`);
      expect(current()).toBe(`releases/${good.name}`);
      expect(releases()).toEqual([good.name]); // the failed release is removed
      const answer = await readiness(port);
      expect(answer).toMatchObject({ status: 200, label: 'a1' });
    }, 60_000);
  }

  it('rolls back when the restart command fails', async () => {
    const good = await deploy('a1', 'ready');
    expect(good.code).toBe(0);
    // Fails for the new release only; the rollback's restart works.
    const restart = `test "$DEPLOY_RELEASE" = ${good.name} && ${restartCmd()}`;
    const bad = await deploy('b2', 'ready', { restartCmd: restart });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('restart failed');
    expect(current()).toBe(`releases/${good.name}`);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'a1' });
  }, 60_000);

  it('leaves current and the service alone when installing dependencies fails', async () => {
    const good = await deploy('a1', 'ready');
    const pid = servicePid();
    const bad = await deploy('b2', 'ready', { installCmd: 'exit 7' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('installing dependencies failed; current unchanged');
    expect(current()).toBe(`releases/${good.name}`);
    expect(releases()).toEqual([good.name]);
    expect(servicePid()).toBe(pid);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'a1' });
  }, 60_000);

  it('refuses an artifact without package.json at its root', async () => {
    const artifact = path.join(work, 'empty.tar.gz');
    mkdirSync(path.join(work, 'empty'));
    execFileSync('tar', ['-czf', artifact, '-C', path.join(work, 'empty'), '.']);
    const result = await runScript(deployScript, ['--artifact', artifact, '--commit', 'abcdef1', ...commonArgs({})]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no package.json');
    expect(releases()).toEqual([]);
    expect(existsSync(path.join(base, 'current'))).toBe(false);
  });

  it('exits 3 when a first release fails and there is nothing to roll back to', async () => {
    const bad = await deploy('b2', 'crash', { attempts: 3 });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('no previous release to roll back to');
  }, 30_000);

  it('keeps the latest 5 releases: the sixth deploy removes the oldest', async () => {
    const names: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const result = await deploy(`c${i}`, 'ready');
      expect(result.code).toBe(0);
      names.push(result.name);
      expect(releases()).toEqual(names.slice(-5));
    }
    expect(existsSync(path.join(base, 'releases', names[0]))).toBe(false);
    expect(current()).toBe(`releases/${names[5]}`);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'c6' });
  }, 120_000);

  it('never removes the current release, even when it sorts oldest', async () => {
    const names: string[] = [];
    for (let i = 2; i <= 6; i++) {
      const result = await deploy(`d${i}`, 'ready', { timestamp: `2025010100000${i}` });
      expect(result.code).toBe(0);
      names.push(result.name);
    }
    // The host clock went back: the new release's name sorts before all others.
    const skewed = await deploy('d1', 'ready', { timestamp: '20240101000000' });
    expect(skewed.code).toBe(0);
    expect(current()).toBe(`releases/${skewed.name}`);
    expect(releases()).toEqual([skewed.name, ...names]);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'd1' });
  }, 120_000);

  it('rolls back by hand to the release before current, or to a named one', async () => {
    const first = await deploy('e1', 'ready');
    const second = await deploy('e2', 'ready');
    expect(second.code).toBe(0);
    const back = await rollback();
    expect(back.code).toBe(0);
    expect(current()).toBe(`releases/${first.name}`);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'e1' });
    const forward = await rollback(['--to', second.name]);
    expect(forward.code).toBe(0);
    expect(current()).toBe(`releases/${second.name}`);
    expect(await readiness(port)).toMatchObject({ status: 200, label: 'e2' });
    const missing = await rollback(['--to', '20200101000000-abcdef1']);
    expect(missing.code).toBe(2);
    expect(current()).toBe(`releases/${second.name}`);
  }, 60_000);

  it('runs one deploy at a time', async () => {
    mkdirSync(path.join(base, 'releases'));
    const holder = spawn('flock', [path.join(base, '.deploy.lock'), 'sleep', '10'], { stdio: 'ignore' });
    try {
      // Held once a try without waiting fails.
      await expect.poll(() => spawnSync('flock', ['-n', path.join(base, '.deploy.lock'), 'true']).status, { timeout: 10_000 }).toBe(1);
      const result = await deploy('f1', 'ready');
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('another deploy holds');
      expect(releases()).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
