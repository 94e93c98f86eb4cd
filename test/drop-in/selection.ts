import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vitestConfig from '../../vitest.config.ts';
import { importsIn } from '../../core/plugins/plugin-checks.ts';

/** The test files vitest runs in `root` (its include patterns), relative to it. */
export const testFilesOf = (root: string): string[] =>
  vitestConfig.test!.include!.flatMap((pattern) => globSync(pattern, { cwd: root })).filter((file) => !file.startsWith(path.join('test', '.tmp')));

/**
 * What in a test's code makes it see every installed plugin, so a folder
 * dropped into plugins/ is among its inputs: an app on every installed
 * plugin (EVERY_INSTALLED_PLUGIN, or a start of core that names no plugins
 * folder: buildApp, configurePlatform, loadPlatform, discoverPlugins, a
 * service process, npm start, the demo), or a walk of plugins/ itself.
 */
const SEES_EVERY_PLUGIN = [
  /EVERY_INSTALLED_PLUGIN/,
  /installedPluginFolders/,
  /\b(buildApp|configurePlatform|loadPlatform|discoverPlugins|startServiceProcess|runDemo|installedDemoParts)\(/,
  /core\/main\.ts/,
  /'npm', \[[^\]]*'start'/,
  /path\.join\(projectRoot, 'plugins'\)/,
];

/**
 * The modules that define those starts (and pass on the plugins their caller
 * names): a test reached through them alone does not see every plugin; one
 * that calls a start with no plugins folder says so in its own code.
 */
const PLUMBING = [
  'test/drop-in/selection.ts',
  'test/helpers/test-app.ts',
  'test/helpers/shipped-plugins.ts',
  'demo/service-process.ts',
  'demo/demo-runner.ts',
  'demo/demo-part.ts',
];

/**
 * The test files (paths relative to `root`) whose result can change when a
 * folder is dropped into plugins/: those whose own code, or the test
 * support they import (followed through relative imports, core and plugin
 * code aside), sees every installed plugin; every check of the tree as a
 * whole (test/architecture/); and the dropped-in plugins' own tests. Any
 * other test has the same inputs with the folder added as without it, and
 * the same result: the drop-in pass of npm test runs these again.
 */
export function testsThatSeeEveryPlugin(root: string, testFiles: readonly string[], droppedIn: readonly string[]): string[] {
  const seen = new Map<string, boolean>();
  const sees = (file: string, visiting: Set<string>): boolean => {
    const known = seen.get(file);
    if (known !== undefined) return known;
    if (visiting.has(file) || !existsSync(file) || PLUMBING.some((module) => file === path.join(root, module))) return false;
    visiting.add(file);
    const text = readFileSync(file, 'utf8');
    const support = importsIn(text)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => path.resolve(path.dirname(file), specifier))
      .filter((target) => ['test', 'demo', 'bench'].some((dir) => target.startsWith(path.join(root, dir) + path.sep)));
    const result = SEES_EVERY_PLUGIN.some((pattern) => pattern.test(text)) || support.some((target) => sees(target, visiting));
    seen.set(file, result);
    return result;
  };
  return testFiles.filter(
    (file) =>
      file.startsWith(`test${path.sep}architecture${path.sep}`) ||
      droppedIn.some((folder) => file.startsWith(`plugins${path.sep}${folder}${path.sep}`)) ||
      sees(path.join(root, file), new Set()),
  );
}
