import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import mutateConfig from '../../vitest.mutate.config.ts';
import vitestConfig from '../../vitest.config.ts';

/** Whether a path or glob of a config names at least one file of the project. */
const names = (pattern: string) => (/[*?[{]/.test(pattern) ? globSync(pattern, { cwd: projectRoot }).length > 0 : existsSync(path.join(projectRoot, pattern)));

/** The files test/any-hour.ts runs at other hours (its FILES list, read as text: the script runs when imported). */
function anyHourFiles(): string[] {
  const text = readFileSync(path.join(projectRoot, 'test', 'any-hour.ts'), 'utf8');
  const list = /const FILES = \[([\s\S]*?)\];/.exec(text);
  if (!list) throw new Error('test/any-hour.ts has no FILES list');
  return [...list[1].matchAll(/'([^']+)'/g)].map((match) => match[1]);
}

/**
 * A path a config names that no longer exists is a check quietly dropped
 * (a mutation run of a moved file mutates nothing, an hour-bound test left
 * out of the any-hour run): every one names a file.
 */
describe('every path the test configs name exists', () => {
  const stryker = JSON.parse(readFileSync(path.join(projectRoot, 'stryker.config.json'), 'utf8')) as { mutate: string[]; vitest: { configFile: string } };
  it.each([
    ['stryker.config.json mutate', stryker.mutate],
    ['stryker.config.json vitest.configFile', [stryker.vitest.configFile]],
    ['vitest.mutate.config.ts include', mutateConfig.test!.include!],
    ['vitest.config.ts include', vitestConfig.test!.include!],
    ['vitest.config.ts globalSetup', [vitestConfig.test!.globalSetup].flat() as string[]],
    ['test/any-hour.ts FILES', anyHourFiles()],
  ])('%s', (_config, patterns) => {
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter((pattern) => !names(pattern))).toEqual([]);
  });

  it('the check sees a path that is gone (a check that cannot fail is no check)', () => {
    expect(names('core/delivery/retry-policy.ts')).toBe(false);
    expect(names('core/plugin-api/retry-policy.ts')).toBe(true);
    expect(names('plugins/utility-scheduled-outages/digest-gating*.test.ts')).toBe(true);
  });
});
