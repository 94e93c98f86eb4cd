// npm run bench:<name> runs `bench/<name>-bench.ts`, or the bench a plugin keeps in its own folder
// (`plugins/<plugin>/bench/<name>-bench.ts`), with the arguments given; a plugin taken out takes its benches along,
// and its npm script then says so instead of failing on a missing file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../core/paths.ts';

const [name, ...args] = process.argv.slice(2);
if (!name) {
  console.error('usage: node bench/run.ts <name> [args…]');
  process.exit(2);
}
const file = `${name}-bench.ts`;
const candidates = [
  path.join(projectRoot, 'bench', file),
  ...readdirSync(path.join(projectRoot, 'plugins')).map((plugin) => path.join(projectRoot, 'plugins', plugin, 'bench', file)),
];
const found = candidates.find((candidate) => existsSync(candidate));
if (!found) {
  console.error(`no bench named ${name}: neither bench/${file} nor a plugin's bench/${file} (is its plugin installed?)`);
  process.exit(1);
}
const run = spawnSync(process.execPath, [...process.execArgv, found, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
