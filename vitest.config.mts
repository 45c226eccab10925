import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './testing/ports';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // As tsconfig's paths: the workspace packages from their sources, whether or not a dist was built.
      'merchant-payments-sdk': fileURLToPath(new URL('packages/sdk/src/index.ts', import.meta.url)),
      // Outside Next's server bundles the marker package throws; the modules it guards are server code here too.
      'server-only': fileURLToPath(new URL('node_modules/server-only/empty.js', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: two files at a time, each on its own database and its own slice of ports.
    maxWorkers: TEST_WORKERS,
    pool: 'forks',
    setupFiles: ['tests/helpers/setup.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
  },
});
