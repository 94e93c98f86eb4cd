import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/paths.ts';
import { THIRD_PARTY_DIR, THIRD_PARTY_PLUGINS } from '../helpers/third-party.ts';
import { testFilesOf, testsThatSeeEveryPlugin } from './selection.ts';

/**
 * The drop-in check, the second half of `npm test`: a scratch copy of the
 * project with the third-party feed and target (test/fixtures/third-party)
 * copied into its plugins/, and no other change, must pass again every
 * test that sees every installed plugin (test/drop-in/selection.ts: the
 * apps and processes on plugins/ as the service finds it, the walks of
 * the tree, the dropped-in plugins' own tests); the others have the same
 * inputs with the folders added as without them. Nested runs skip it
 * (NP_DROP_IN is set in the copy).
 */
if (process.env.NP_DROP_IN === '1') process.exit(0);

/** The project's files as a clean clone has them (and what is added but not yet committed), else every file but the ignored folders. */
function projectFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    const skip = new Set(['node_modules', '.git', 'data']);
    return readdirSync(projectRoot, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)))
      .filter((file) => !skip.has(file.split(path.sep)[0]) && !file.startsWith(path.join('test', '.tmp')));
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'np-drop-in-'));
let code = 1;
try {
  for (const file of projectFiles()) {
    if (!existsSync(path.join(projectRoot, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    cpSync(path.join(projectRoot, file), path.join(scratch, file));
  }
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  for (const folder of THIRD_PARTY_PLUGINS) cpSync(path.join(THIRD_PARTY_DIR, folder), path.join(scratch, 'plugins', folder), { recursive: true });
  const testFiles = testFilesOf(scratch);
  const selected = testsThatSeeEveryPlugin(scratch, testFiles, THIRD_PARTY_PLUGINS);
  process.stdout.write(
    `\ndrop-in check: with ${THIRD_PARTY_PLUGINS.join(' and ')} dropped into plugins/ of a copy (${scratch}), ` +
      `the ${selected.length} of ${testFiles.length} test files that see every installed plugin again\n\n`,
  );
  const vitest = path.join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
  code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...selected], { cwd: scratch, stdio: 'inherit', env: { ...process.env, NP_DROP_IN: '1' } });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = code;
