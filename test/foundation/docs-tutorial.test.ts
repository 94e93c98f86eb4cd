import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';

const page = readFileSync(path.join(projectRoot, 'docs', 'writing-a-plugin.md'), 'utf8');
const shown = [...page.matchAll(/<!-- file: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)].map((match) => ({ file: match[1], code: match[2] }));

/**
 * docs/writing-a-plugin.md shows the tutorial's plugins file by file; the
 * files are test/fixtures/third-party, which npm test drops into a copy of
 * the project and runs. So the tutorial runs as written only if every file
 * it shows is the tested one, as it is.
 */
describe('the plugin tutorial shows the tested plugins as they are', () => {
  it('shows both plugins, manifest first', () => {
    expect(shown.map((entry) => entry.file)).toEqual(
      expect.arrayContaining(['test/fixtures/third-party/utility-water-supply/index.ts', 'test/fixtures/third-party/delivery-chat/index.ts']),
    );
    expect(shown.length).toBeGreaterThanOrEqual(8);
  });

  it.each(shown.map((entry) => [entry.file, entry.code]))('%s is shown as it is', (file, code) => {
    expect(code).toBe(readFileSync(path.join(projectRoot, file), 'utf8').replace(/\n+$/, ''));
  });
});
