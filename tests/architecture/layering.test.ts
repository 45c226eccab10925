// The layering written down in .dependency-cruiser.cjs holds for the whole source tree.
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-files';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../.dependency-cruiser.cjs');

describe('architecture', () => {
  it('keeps every layering rule (contract pure, core framework-agnostic, browser code off the server)', async () => {
    const result = await cruise(
      ['app', 'lib', 'console', 'scripts', 'ops', 'bench', 'testing', 'packages/sdk/src', 'proxy.ts', 'instrumentation.ts'],
      {
        ...config.options,
        ruleSet: { forbidden: config.forbidden },
        validate: true,
      },
    );
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    const violations = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(violations).toEqual([]);
  });

  it('keeps Playwright specs clear of vitest (they load helpers, never the vitest runner)', async () => {
    const result = await cruise(['tests/e2e'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    expect(output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('catches violations: a contract module importing the core, a lib module importing a composition root, the core against its layers (fixture tree)', async () => {
    const result = await cruise(['lib', 'console', 'bench', 'instrumentation.ts'], {
      baseDir: path.join(__dirname, 'fixture'),
      ruleSet: { forbidden: config.forbidden },
      validate: true,
    });
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string }[] } };
    expect(output.summary.violations.map((v) => `${v.rule.name}: ${v.from}`).sort()).toEqual([
      'bench-and-tests-meet-in-testing: bench/reaches-tests.ts',
      'contract-is-pure: lib/contract/leak.ts',
      'core-domains-below-the-assembly: lib/payments/refunds/reads-the-table.ts',
      'core-ledger-below-the-domains: lib/payments/ledger/reads-payouts.ts',
      // Folder-scoped: the two folders of the cycle, each as the start of it.
      'core-no-folder-cycle: lib/payments/payouts',
      'core-no-folder-cycle: lib/payments/pipeline',
      'core-pipeline-knows-no-domain: lib/payments/pipeline/runs-payouts.ts',
      'next-entry-reaches-no-core: instrumentation.ts',
      'roots-stay-on-top: console/server/session/reaches-root.ts',
    ]);
  });
});

describe('server-only markers', () => {
  // Modules that hold a merchant's key or the session secrets. Those that never see a key are listed by
  // name: pure helpers, and what the start script imports outside Next (where the marker throws): the purge and the console's wiring.
  const NO_KEY_HERE = new Set([
    'console/server/upstream/in-process-fetch.ts',
    'console/server/upstream/upstream-error.ts',
    'console/server/session/session-purge.ts',
    'console/server/data/console-wiring.ts',
  ]);
  const files = sourceFiles(['console/server/session', 'console/server/data', 'console/server/upstream'], /\.ts$/).filter(
    (f) => !NO_KEY_HERE.has(f),
  );

  it.each(files)('%s starts with import "server-only"', (file) => {
    expect(readSource(file).split('\n')[0]).toBe("import 'server-only';");
  });
});
