import path from 'node:path';
import { defineConfig } from 'vitest/config';

// npm run test:stress (STRESS_SIZE=quick inside npm test): real server processes under load.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['tests/stress/**/*.stress.ts'],
    globalSetup: ['tests/stress/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Each file loads both cores on its own: one at a time keeps the figures honest.
    fileParallelism: false,
    pool: 'forks',
  },
});
