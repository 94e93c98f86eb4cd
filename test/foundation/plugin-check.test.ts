import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { childEnv } from '../helpers/child-env.ts';
import { THIRD_PARTY_DIR } from '../helpers/third-party.ts';

const run = promisify(execFile);

/** `npm run plugin:check <folder>` as a developer runs it, on a plugin kept outside the project (the exit code, and what it prints). */
async function pluginCheck(folder: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [path.join(projectRoot, 'core', 'cli', 'plugin-check.ts'), folder], {
      cwd: path.dirname(folder),
      env: childEnv(),
    });
    return { code: 0, output: stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('npm run plugin:check', { timeout: 120_000 }, () => {
  let outside: string;
  beforeAll(() => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'their-plugins-'));
  });
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  const copyOf = (name: string) => {
    const dir = path.join(outside, name);
    cpSync(path.join(THIRD_PARTY_DIR, 'utility-water-supply'), dir, { recursive: true });
    return dir;
  };

  it('passes a good plugin kept outside the project: manifest, locales, imports, types, and its own tests run', async () => {
    const { code, output } = await pluginCheck(copyOf('utility-water-supply'));
    expect(output).toContain('ok   manifest (feed utility-water-supply, plugin API 3)');
    expect(output).toContain('ok   type check against the installed plugin API');
    expect(output).toMatch(/ok {3}its tests \(Tests {2}9 passed \(9\)\)/);
    expect(code).toBe(0);
  });

  it('fails a broken one, naming each problem: a locale that does not parse or drops an argument, an import outside its folder, a type error, a failing test', async () => {
    const dir = copyOf('broken');
    // Its folder is its id: a copy under another name is a manifest problem too.
    mkdirSync(path.join(dir, 'locales'));
    writeFileSync(path.join(dir, 'locales', 'en.json'), JSON.stringify({ 'zone.label': 'Zone {zone}' }));
    writeFileSync(path.join(dir, 'locales', 'si.json'), JSON.stringify({ 'zone.label': 'කලාපය {zon}' }));
    writeFileSync(path.join(dir, 'locales', 'ta.json'), '{ "zone.label": "மண்டலம் {zone}" ');
    writeFileSync(path.join(dir, 'extra.ts'), "export { projectRoot } from '../../core/paths.ts';\nexport const wrong: number = 'a string';\n");
    appendFileSync(path.join(dir, 'water-policy.test.ts'), "\nit('fails on purpose', () => expect(1).toBe(2));\n");
    const { code, output } = await pluginCheck(dir);
    expect(code).toBe(1);
    expect(output).toMatch(/FAIL manifest\n.*"broken".*must equal the folder name/);
    expect(output).toContain('locales/ta.json does not parse');
    expect(output).toContain('locales/si.json "zone.label" names {zon}, English {zone}');
    expect(output).toContain('extra.ts imports ../../core/paths.ts, outside its folder');
    expect(output).toMatch(/FAIL type check against the installed plugin API\n(.*\n)*.*broken\/extra\.ts\(2,14\): error TS2322/);
    expect(output).toMatch(/FAIL its tests \(Tests {2}1 failed \| 9 passed \(10\)\)/);
  });
});
