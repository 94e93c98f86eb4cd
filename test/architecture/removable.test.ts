import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';

const run = promisify(execFile);

/**
 * Drop-out as well as drop-in: a shipped delivery target taken out of
 * plugins/ takes its own tests, benchmarks and doubles' uses along, and
 * everything else still type-checks (the tests and scripts that use it
 * among others leave that part out: test/helpers/shipped-plugins.ts
 * `installed`, or load a module of it by path with `pluginModule`).
 * Checked in a copy of the project without the folders.
 */
const REMOVABLE = ['delivery-sms', 'delivery-voice', 'delivery-webhook', 'delivery-webpush', 'delivery-push', 'delivery-email'];

/** The project's files as a clone has them (and what is added but not yet committed). */
function projectFiles(): string[] | null {
  try {
    return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    return null;
  }
}
const files = projectFiles();

// One copy without all of them: an import of any one from outside its folder fails the type check just the same.
// Once per npm test (the drop-in pass adds plugins, it removes none).
describe.skipIf(files === null || process.env.NP_DROP_IN === '1')('shipped targets taken out', { timeout: 180_000 }, () => {
  it(`without ${REMOVABLE.join(', ')}, the rest type-checks: nothing outside them imports them`, async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'np-without-'));
    try {
      for (const file of files!) {
        if (REMOVABLE.some((plugin) => file.startsWith(`plugins/${plugin}/`))) continue;
        mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
        try {
          cpSync(path.join(projectRoot, file), path.join(copy, file));
        } catch {
          // deleted in the work tree, not yet committed
        }
      }
      symlinkSync(path.join(projectRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
      expect(readdirSync(path.join(copy, 'plugins')).filter((folder) => REMOVABLE.includes(folder))).toEqual([]);
      const tsc = await run(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], {
        cwd: copy,
      }).then(
        () => '',
        (err: { stdout: string }) => err.stdout,
      );
      expect(tsc).toBe('');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
