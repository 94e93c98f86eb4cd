import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployScript, hasCommand, makeTempDir, repoRoot, runScript } from './helpers.ts';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const unitFile = 'config/systemd/notification-pipeline.service';
const sudoersFile = 'config/sudoers/notification-pipeline';
const nginxFile = 'config/nginx/notification-pipeline.conf';
const workflowFile = '.github/workflows/ci-deploy.yml';

/** `Key=value` lines of an INI-like unit file, comments dropped. */
function unitEntries(text: string): Array<[string, string]> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('['))
    .map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)] as [string, string];
    });
}

/** Command lines of the sudoers Cmnd_Alias, continuation lines joined. */
function sudoersCommands(text: string): string[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const alias = /Cmnd_Alias\s+\w+\s*=\s*(.+)/.exec(joined);
  return alias ? alias[1].split(',').map((command) => command.trim().replace(/\s+/g, ' ')) : [];
}

describe('host files', () => {
  let work: string;
  beforeEach(() => {
    work = makeTempDir('np-host-');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('systemd unit: runs start.sh of the current release as the service account, env file, Restart=always, 40 % heap', () => {
    const entries = unitEntries(read(unitFile));
    const values = (key: string) => entries.filter(([name]) => name === key).map(([, value]) => value);
    expect(values('User')).toEqual(['notification-pipeline']);
    expect(values('Group')).toEqual(['notification-pipeline']);
    expect(values('WorkingDirectory')).toEqual(['/srv/notification-pipeline/current']);
    expect(values('EnvironmentFile')).toEqual(['/etc/notification-pipeline/notification-pipeline.env']);
    expect(values('ExecStart')).toEqual(['/bin/bash /srv/notification-pipeline/current/config/deploy/start.sh']);
    expect(existsSync(path.join(repoRoot, 'config/deploy/start.sh'))).toBe(true);
    expect(values('Restart')).toEqual(['always']);
    expect(values('StartLimitIntervalSec')).toEqual(['0']);
    expect(values('Environment')).toEqual(expect.arrayContaining(['NP_HEAP_PERCENT=40', 'NP_NODE=/usr/bin/node', 'NODE_ENV=production']));
    expect(values('WantedBy')).toEqual(['multi-user.target']);
  });

  it.skipIf(!hasCommand('systemd-analyze'))('systemd unit passes systemd-analyze verify', () => {
    const copy = path.join(work, 'notification-pipeline.service');
    writeFileSync(copy, read(unitFile));
    const output = execFileSync('bash', ['-c', 'systemd-analyze verify "$1" 2>&1', 'verify', copy], { encoding: 'utf8' });
    expect(output).not.toMatch(/Unknown|Failed|Invalid|ignoring/i);
  });

  it('sudoers: the deploy account may run only restart, is-active and status of the unit, which is what deploy.sh runs', async () => {
    const text = read(sudoersFile);
    expect(sudoersCommands(text)).toEqual([
      '/usr/bin/systemctl restart notification-pipeline.service',
      '/usr/bin/systemctl is-active notification-pipeline.service',
      '/usr/bin/systemctl status --no-pager notification-pipeline.service',
    ]);
    expect(text).toMatch(/^deploy ALL=\(root\) NOPASSWD: NOTIFICATION_PIPELINE$/m);
    const plan = await runScript(deployScript, ['--dry-run', '--rollback', '--local', work]);
    const restart = /restart: sudo -n (.+)/.exec(plan.stdout)?.[1];
    const active = /active check: sudo -n (.+)/.exec(plan.stdout)?.[1];
    expect(sudoersCommands(text)).toContain(restart);
    expect(sudoersCommands(text)).toContain(active);
  });

  it.skipIf(!hasCommand('visudo'))('sudoers: visudo accepts the rule', () => {
    execFileSync('visudo', ['-cqf', path.join(repoRoot, sudoersFile)]);
  });

  it('nginx: listens on 80 and 443 and proxies to 127.0.0.1:5000 with X-Forwarded-For', () => {
    const text = read(nginxFile);
    expect(text).toMatch(/^\s*listen 80;$/m);
    expect(text).toMatch(/^\s*listen 443 ssl;$/m);
    expect(text).toMatch(/server 127\.0\.0\.1:5000;/);
    expect(text).toMatch(/proxy_pass http:\/\/notification_pipeline;/);
    expect(text).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(text).not.toMatch(/^\s*listen\s[^;\n]*5000/m);
  });

  it.skipIf(!hasCommand('nginx') || !hasCommand('openssl'))('nginx: nginx -t accepts the site', () => {
    mkdirSync(path.join(work, 'logs'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=test',
        '-keyout',
        path.join(work, 'key.pem'),
        '-out',
        path.join(work, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const site = read(nginxFile)
      .replace('/etc/letsencrypt/live/notifications.example.org/fullchain.pem', path.join(work, 'cert.pem'))
      .replace('/etc/letsencrypt/live/notifications.example.org/privkey.pem', path.join(work, 'key.pem'));
    writeFileSync(path.join(work, 'site.conf'), site);
    writeFileSync(
      path.join(work, 'nginx.conf'),
      [`pid ${work}/nginx.pid;`, `error_log ${work}/logs/error.log;`, 'events {}', `http { access_log off; include ${work}/site.conf; }`, ''].join('\n'),
    );
    execFileSync('nginx', ['-t', '-q', '-p', work, '-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'logs/error.log')], { stdio: 'pipe' });
  });

  it('host-setup.sh installs the env file from the template with mode 640, owner root, group the service account', async () => {
    const template = path.join(work, 'env.template');
    writeFileSync(template, '# Generated by `npm run config:template`\nServer__Host=127.0.0.1\nServer__Port=5000\n');
    const result = await runScript(path.join(repoRoot, 'config/deploy/host-setup.sh'), [
      '--dry-run',
      '--env-template',
      template,
      '--domain',
      'notify.example.test',
      '--deploy-user',
      'ci-deploy',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    if (!existsSync('/etc/notification-pipeline/notification-pipeline.env')) {
      expect(out).toContain(`+ install -m 640 -o root -g notification-pipeline ${template} /etc/notification-pipeline/notification-pipeline.env`);
    }
    expect(out).toContain('+ install -d -o root -g notification-pipeline -m 750 /etc/notification-pipeline');
    expect(out).toContain('+ install -d -o notification-pipeline -g notification-pipeline -m 750 /srv/notification-pipeline/shared/data');
    expect(out).toMatch(
      /\+ install -m 644 -o root -g root \S+\/config\/systemd\/notification-pipeline\.service \/etc\/systemd\/system\/notification-pipeline\.service/,
    );
    expect(out).toMatch(/\+ install -m 440 -o root -g root \S+ \/etc\/sudoers\.d\/notification-pipeline/);
    expect(out).toContain('+ systemctl enable notification-pipeline.service');

    const missing = await runScript(path.join(repoRoot, 'config/deploy/host-setup.sh'), ['--dry-run', '--env-template', path.join(work, 'none')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('npm run config:template');
  });

  it('CI workflow: tests, builds the artifact and deploys on main with the VPS_* secrets only', () => {
    const text = read(workflowFile);
    for (const secret of ['VPS_HOST', 'VPS_USER', 'VPS_PORT', 'VPS_SSH_KEY', 'VPS_SSH_KNOWN_HOSTS']) {
      expect(text).toContain(`${secret}: \${{ secrets.${secret} }}`);
    }
    const secretsUsed = [...text.matchAll(/secrets\.(\w+)/g)].map((match) => match[1]);
    expect(new Set(secretsUsed)).toEqual(new Set(['VPS_HOST', 'VPS_USER', 'VPS_PORT', 'VPS_SSH_KEY', 'VPS_SSH_KNOWN_HOSTS']));
    expect(text).toContain('npm test');
    expect(text).toContain('shellcheck config/deploy/*.sh');
    expect(text).toContain('bash config/deploy/build-artifact.sh');
    expect(text).toContain('bash config/deploy/deploy.sh');

    let yaml: { load(source: string): unknown } | undefined;
    try {
      yaml = createRequire(import.meta.url)('js-yaml') as { load(source: string): unknown };
    } catch {
      yaml = undefined; // only a transitive dependency: the text checks above still run
    }
    if (yaml) {
      const workflow = yaml.load(text) as {
        on: Record<string, unknown>;
        jobs: Record<string, { needs?: string; if?: string; steps: Array<{ run?: string; uses?: string }> }>;
      };
      expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
      expect(Object.keys(workflow.jobs)).toEqual(['test', 'deploy']);
      expect(workflow.jobs.deploy.needs).toBe('test');
      expect(workflow.jobs.deploy.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
      expect(workflow.jobs.test.steps.some((step) => step.run === 'npm test')).toBe(true);
    }
  });

  it('no private key or production secret is kept in the deployment files', () => {
    const files = ['config/deploy', 'config/systemd', 'config/sudoers', 'config/nginx', '.github/workflows', 'test/deploy'].flatMap((dir) =>
      readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
      expect(text, file).not.toMatch(/^(Jwt__Secret|ExternalProvider__ApiKey|ConnectionStrings__DefaultConnection)=\S/m);
    }
  });

  it.skipIf(!hasCommand('shellcheck'))('shellcheck passes on every script', () => {
    const scripts = [
      ...readdirSync(path.join(repoRoot, 'config/deploy'))
        .filter((name) => name.endsWith('.sh'))
        .map((name) => path.join(repoRoot, 'config/deploy', name)),
      ...readdirSync(path.join(repoRoot, 'test/deploy/fixtures'))
        .filter((name) => name.endsWith('.sh'))
        .map((name) => path.join(repoRoot, 'test/deploy/fixtures', name)),
    ];
    expect(scripts.length).toBeGreaterThanOrEqual(6);
    execFileSync('shellcheck', scripts, { stdio: 'pipe' });
  });

  it('build-artifact.sh archives the committed tree of a ref and prints its path and commit', async () => {
    const repo = path.join(work, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(path.join(repo, 'package.json'), '{}\n');
    writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n');
    mkdirSync(path.join(repo, 'node_modules'));
    writeFileSync(path.join(repo, 'node_modules/x.js'), '');
    git('add', 'package.json', '.gitignore');
    git('commit', '-q', '-m', 'one');
    writeFileSync(path.join(repo, 'uncommitted.txt'), 'no');
    const commit = git('rev-parse', 'HEAD').trim();
    const result = await runScript(path.join(repoRoot, 'config/deploy/build-artifact.sh'), ['--out', path.join(work, 'out')], {}, repo);
    expect(result.code, result.stderr).toBe(0);
    const [artifact, printed] = result.stdout.trim().split('\n');
    expect(printed).toBe(commit);
    expect(artifact).toBe(path.join(work, 'out', `notification-pipeline-${commit.slice(0, 7)}.tar.gz`));
    const listing = execFileSync('tar', ['-tzf', artifact], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(listing).toEqual(['.gitignore', 'package.json']);
  });
});
