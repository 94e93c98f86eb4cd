import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, runScript, startScript } from './helpers.ts';

/** config/deploy/start.sh, the unit's ExecStart: runtime check and heap cap. */
describe('start.sh', () => {
  let work: string;
  let meminfo: string;
  const noCgroupLimit = '/nonexistent/memory.max';

  beforeEach(() => {
    work = makeTempDir('np-start-');
    meminfo = path.join(work, 'meminfo');
    // 10 GiB
    writeFileSync(meminfo, 'MemTotal:       10485760 kB\nMemFree:         1000000 kB\n');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const fakeNode = (version: string) => {
    const file = path.join(work, `node-${version}`);
    writeFileSync(file, `#!/usr/bin/env bash\necho ${version}\n`);
    chmodSync(file, 0o755);
    return file;
  };

  it('caps the heap at 40 % of MemTotal by default and runs core/main.ts', async () => {
    const result = await runScript(startScript, ['--print'], {
      NP_NODE: process.execPath,
      NP_MEMINFO: meminfo,
      NP_MEMORY_MAX: noCgroupLimit,
      NP_HEAP_PERCENT: '',
      NP_HEAP_MIB: '',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`${process.execPath} --max-semi-space-size=32 --max-old-space-size=4096 core/main.ts`);
  });

  it('uses the cgroup memory limit when it is lower, and honours NP_HEAP_PERCENT and NP_HEAP_MIB', async () => {
    const limit = path.join(work, 'memory.max');
    writeFileSync(limit, `${2 * 1024 ** 3}\n`);
    const env = { NP_NODE: process.execPath, NP_MEMINFO: meminfo, NP_MEMORY_MAX: limit, NP_HEAP_MIB: '' };
    expect((await runScript(startScript, ['--print'], { ...env, NP_HEAP_PERCENT: '' })).stdout).toContain('--max-old-space-size=819 ');
    writeFileSync(limit, 'max\n');
    expect((await runScript(startScript, ['--print'], { ...env, NP_HEAP_PERCENT: '25' })).stdout).toContain('--max-old-space-size=2560 ');
    expect((await runScript(startScript, ['--print'], { ...env, NP_HEAP_MIB: '1500' })).stdout).toContain('--max-old-space-size=1500 ');
    expect((await runScript(startScript, ['--print'], { ...env, NP_HEAP_PERCENT: '0' })).code).toBe(1);
  });

  it('exits at once, with a message, when the runtime is missing or older than 22.18', async () => {
    const missing = await runScript(startScript, ['--print'], { NP_NODE: path.join(work, 'no-node') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no Node runtime at');
    const old = await runScript(startScript, ['--print'], { NP_NODE: fakeNode('v20.19.0') });
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('is v20.19.0; need >= 22.18');
    const almost = await runScript(startScript, ['--print'], { NP_NODE: fakeNode('v22.17.1') });
    expect(almost.code).toBe(1);
    const enough = await runScript(startScript, ['--print'], { NP_NODE: fakeNode('v22.18.0'), NP_MEMINFO: meminfo, NP_MEMORY_MAX: noCgroupLimit });
    expect(enough.code).toBe(0);
  });
});
