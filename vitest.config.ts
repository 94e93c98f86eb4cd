import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'plugins/**/*.test.ts', 'test/**/*.test.ts', 'demo/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/.tmp/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: PGlite instances are large, keep parallel files few.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
