import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault suite (test/faults/*.fault.ts), real
 * service processes under faults, one case at a time (each owns the
 * machine's two cores). CI runs it after `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.fault.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000, interval: 50 } },
    fileParallelism: false,
    maxWorkers: 1,
  },
});
