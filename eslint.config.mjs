// The lint step of `npm test` (scripts/test-all.mjs): Next's rules (core web vitals, React, hooks, a11y, imports),
// typescript-eslint's recommended rules, and eslint-config-prettier last so that no rule argues with the formatter.
// Zero warnings: `eslint --max-warnings 0`. No file is silenced; a rule is set here for everyone or for a whole kind of code.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `const { secret: _, ...safe } = row` is how a field is left out of an object: the rest is what is used.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // No React runs in the tests, scripts or benchmarks: their `use…` names are Playwright's fixture `use` and
    // set-up helpers (useTestApi registers beforeAll/afterAll), which the hooks rules would take for React hooks.
    files: ['tests/**', 'testing/**', 'scripts/**', 'bench/**', 'ops/**', 'packages/playwright/**', 'examples/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  prettier,
  globalIgnores([
    '.next*/**',
    'node_modules/**',
    '.data/**',
    '.cluster/**',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    'public/**',
    'packages/*/dist/**',
  ]),
]);
