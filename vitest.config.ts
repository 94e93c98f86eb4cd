import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'plugins/**/*.test.ts', 'test/**/*.test.ts', 'demo/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/.tmp/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    // expect.poll waits on a condition; its own default gives up after 1 s, which a loaded machine can need more than.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 60_000,
    // Two cores: PGlite instances are large, keep parallel files few.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
