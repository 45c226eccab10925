// 500 concurrent withdrawals worth more than the balance: available never below zero, ledger exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal } from '../helpers/api-server';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, ledgerCheck, stressBackends } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, STRESS } from './figures';

describe.each(stressBackends)('concurrent withdrawals beyond the balance on %s', (backend) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create(backend, backend === 'postgres' ? ['standalone', 'next'] : ['standalone']);
  });
  afterAll(() => d?.close());

  it(`${STRESS.overdraw} at once: only what the balance covers is paid, never below zero`, async () => {
    const { merchantId, available: opening } = await d.balance();
    const amount = Math.ceil((opening * 2.5) / STRESS.overdraw);
    const covered = Math.floor(opening / amount);

    // A reader watches the balance throughout the load.
    let loading = true;
    let lowest = opening;
    let reads = 0;
    const watcher = (async () => {
      while (loading) {
        const res = await callApi(d.servers[reads % d.servers.length]!.url, DEMO_KEY, { action: 'get_balance' });
        reads++;
        if (res.status === 200) lowest = Math.min(lowest, res.body.available);
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: STRESS.overdraw }, (_, i) =>
        callApi(d.servers[i % d.servers.length]!.url, DEMO_KEY, withdrawal(amount), { idempotencyKey: `over-${i}` }),
      ),
    );
    loading = false;
    await watcher;

    const paid = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 422 && a.body?.error?.code === 'insufficient_funds').length;
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(paid).toBe(covered);
    expect(refused).toBe(STRESS.overdraw - covered);
    expect(lowest).toBeGreaterThanOrEqual(0);

    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: covered, available: opening - covered * amount });
    recordFigures(`overdraw on ${backend} (${d.servers.map((s) => s.opts.kind).join(' + ')})`, {
      withdrawals: STRESS.overdraw,
      paid,
      refused,
      'lowest available seen': lowest,
      'balance reads': reads,
      'final available': check.available,
      'ledger sum': check.ledger,
    });
  });
});
