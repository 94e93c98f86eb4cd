// npm run plugin:check <folder>: checks a plugin kept anywhere (its own repository, /opt/alerts/plugins/…) as the
// platform would: its manifest (loaded as the service loads it), its locales, its imports, a type check against the
// installed plugin API, and its own tests. Exit 0 when all pass, 1 naming each problem.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../paths.ts';
import { discoverPlugins } from '../plugins/discover.ts';
import { boundaryProblems, localeProblems } from '../plugins/plugin-checks.ts';

const given = process.argv[2];
if (!given) {
  console.error('usage: npm run plugin:check <folder of one plugin>');
  process.exit(2);
}
const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
if (!existsSync(path.join(folder, 'index.ts'))) {
  console.error(`${folder} is not a plugin folder (it has no index.ts)`);
  process.exit(1);
}
const name = path.basename(folder);
const apiEntry = path.join(projectRoot, 'core', 'plugin-api', 'index.ts');
let failed = false;
const report = (step: string, problems: readonly string[]) => {
  if (problems.length === 0) return void console.log(`ok   ${step}`);
  failed = true;
  console.log(`FAIL ${step}`);
  for (const problem of problems) console.log(`     ${problem}`);
};

// 1. The manifest, loaded and validated as the service's start does.
try {
  const [plugin] = await discoverPlugins([{ dir: folder, namedBy: 'plugin:check' }]);
  report(`manifest (${plugin!.manifest.kind} ${plugin!.manifest.id}, plugin API ${plugin!.manifest.apiVersion ?? 1})`, []);
} catch (err) {
  report('manifest', [(err as Error).message]);
}
report('locales', localeProblems(folder));
report('imports (#plugin-api only, nothing outside the folder)', boundaryProblems(folder));

// 2. A copy in a workspace beside the project's packages: the type check and the tests see what the service gives a plugin.
const workspace = mkdtempSync(path.join(os.tmpdir(), 'plugin-check-'));
try {
  cpSync(folder, path.join(workspace, name), { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(workspace, 'node_modules'));
  writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ type: 'module', private: true, imports: { '#plugin-api': apiEntry } }));
  writeFileSync(
    path.join(workspace, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(projectRoot, 'tsconfig.json'),
      compilerOptions: { paths: { '#plugin-api': [apiEntry] } },
      include: [`${name}/**/*.ts`],
      exclude: [],
    }),
  );
  writeFileSync(
    path.join(workspace, 'vitest.config.mjs'),
    `export default { resolve: { alias: { '#plugin-api': ${JSON.stringify(apiEntry)} } }, test: { include: [${JSON.stringify(`${name}/**/*.test.ts`)}], passWithNoTests: true } };\n`,
  );
  const run = (args: string[]) =>
    spawnSync(process.execPath, args, { cwd: workspace, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  // Problems name the plugin's own files, not the copy's.
  const own = (text: string) =>
    text
      .split(workspace + path.sep)
      .join('')
      .split(`${name}/`)
      .join(`${given.replace(/\/+$/, '')}/`);
  const tsc = run([path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
  report(
    'type check against the installed plugin API',
    tsc.status === 0
      ? []
      : own(tsc.stdout + tsc.stderr)
          .trim()
          .split('\n'),
  );
  const tests = run([path.join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'vitest.config.mjs']);
  const summary = own(tests.stdout.replace(/\u001b\[[0-9;]*m/g, ''))
    .split('\n')
    .filter((line) => /Test Files|Tests |FAIL|×/.test(line))
    .map((line) => line.trim());
  report(
    `its tests (${summary.find((line) => line.startsWith('Tests')) ?? 'none'})`,
    tests.status === 0 ? [] : summary.length > 0 ? summary : own(tests.stderr).trim().split('\n').slice(-15),
  );
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
