// Two app instances (standalone and Next) on one PostgreSQL: duplicates of each key spread over both pay once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl } from '../../testing/databases';
import { withdrawal } from '../helpers/api-server';
import { callUntilAnswered } from '../helpers/retrying-client';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, ledgerCheck } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, STRESS } from './figures';
import { runPool, shuffle } from './load';

describe.runIf(postgresUrl)('two instances on one PostgreSQL', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create('postgres', ['standalone', 'next']);
  }, 300_000);
  afterAll(() => d?.close());

  it(`${STRESS.keys} keys x ${STRESS.duplicates} duplicates over both instances make exactly ${STRESS.keys} payouts, no 5xx`, async () => {
    const { merchantId, available: before } = await d.balance();
    const amount = 10_000;
    const requests = shuffle(
      Array.from({ length: STRESS.keys * STRESS.duplicates }, (_, i) => ({ key: `multi-${i % STRESS.keys}`, instance: i % 2 })),
    );
    const answers = await runPool(requests, 64, async ({ key, instance }) => {
      const server = d.servers[instance]!;
      return { key, ...(await callUntilAnswered(() => server.url, DEMO_KEY, withdrawal(amount), { idempotencyKey: key })) };
    });

    const statuses = answers.flatMap((a) => a.statuses);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(answers.every((a) => a.result.status === 200)).toBe(true);
    const payoutIdByKey = new Map<string, Set<string>>();
    for (const a of answers) {
      const ids = payoutIdByKey.get(a.key) ?? new Set();
      ids.add(a.result.body.id);
      payoutIdByKey.set(a.key, ids);
    }
    expect([...payoutIdByKey.values()].every((ids) => ids.size === 1)).toBe(true);

    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: STRESS.keys, available: before - STRESS.keys * amount });
    recordFigures('two instances, one PostgreSQL', {
      requests: answers.length,
      attempts: statuses.length,
      duplicates: answers.length - STRESS.keys,
      replayed: answers.filter((a) => a.result.headers.get('x-service-idempotent-replayed') === 'true').length,
      'in-progress 409s retried': statuses.filter((s) => s === 409).length,
      '5xx': statuses.filter((s) => s >= 500).length,
      payouts: check.payouts,
      'lost or doubled': Math.abs(check.payouts - STRESS.keys),
    });
  }, 300_000);
});
