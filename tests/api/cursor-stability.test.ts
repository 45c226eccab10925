// Cursor pages stay stable while rows are added: walking a list page by page while new payouts, ledger
// entries and events arrive yields exactly the rows that existed when the walk began, in order, each once.
import { describe, expect, it } from 'vitest';
import { useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';

describe.each(backends)('cursor pages under concurrent inserts ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 100_000_000, settings: { settlementDelaySeconds: 3600 } });

  it.each([
    ['list_payouts', {}],
    ['list_payouts', { status: 'pending' }],
    ['list_balance_transactions', {}],
    ['list_events', {}],
  ] as const)('%s %o', async (action, filter) => {
    for (let i = 0; i < 25; i++) expect((await api().call(withdrawal(10_000 + i))).status).toBe(200);
    const first = await api().call({ action, limit: 100, ...filter });
    const existing = first.body.data.map((r: { id: string }) => r.id);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await api().call({ action, limit: 7, ...filter, ...(after ? { starting_after: after } : {}) })).body;
      seen.push(...page.data.map((r: { id: string }) => r.id));
      // Two more withdrawals land between every two pages: above the cursor, never in the pages still to come.
      await Promise.all([api().call(withdrawal(20_000)), api().call(withdrawal(20_001))]);
      if (!page.has_more) break;
      after = seen.at(-1);
    }
    expect(seen.slice(0, existing.length)).toEqual(existing);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
