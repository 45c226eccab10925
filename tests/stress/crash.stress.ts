// kill -9 during a withdrawal load whose clients retry with the same keys: nothing lost, nothing doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal } from '../helpers/api-server';
import { callUntilAnswered, type AnsweredCall } from '../helpers/retrying-client';
import type { Db } from '@/lib/db/types';
import { DEMO_KEY } from '../../testing/server-process';
import { ACCOUNT_NUMBERS } from './accounts';
import { Deployment, ledgerCheck, stressBackends } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, STRESS } from './figures';
import type { JsonAnswer } from '../helpers/json-answer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type LogRow = { id: string; status: number; action: string; key_id: string; idempotency_key: string | null };

/** The merchant's request log once every id in `expected` is in it (the running server writes within 200 ms), or after 10 s. */
async function waitForRows(db: Db, merchantId: string, expected: Set<string>): Promise<LogRow[]> {
  for (const deadline = Date.now() + 10_000; ;) {
    const rows = await db.query<LogRow>('SELECT id, status, action, key_id, idempotency_key FROM request_log WHERE merchant_id = $1', [
      merchantId,
    ]);
    const have = new Set(rows.map((r) => r.id));
    if ([...expected].every((id) => have.has(id)) || Date.now() > deadline) return rows;
    await sleep(100);
  }
}

describe.each(stressBackends)('crashes under load on %s', (backend) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create(backend, ['standalone']);
  });
  afterAll(() => d?.close());

  it(`survives ${STRESS.crashes} kill -9 with every acknowledged payout exactly once`, async () => {
    const server = d.servers[0]!;
    const { merchantId, available: opening } = await d.balance();
    type Sent = { key: string; amount: number; answer?: AnsweredCall<JsonAnswer> };
    const sent: Sent[] = [];
    let killing = true;
    let restartMs = 0;
    // When each kill -9 was asked for and when the process was gone: answers may still leave it in between.
    const kills: { from: number; to: number }[] = [];
    // Requests that never reach the core (a wrong key: 401), one after each restart: the log must not hold
    // them. Few, so that the address stays under AUTH_FAILURES_PER_MINUTE (20) and the clients are not throttled.
    let strangers = 0;
    const stranger = async () => {
      const res = await callApi(server.url, `sk_test_${'n'.repeat(40)}`, { action: 'get_balance' }).catch(() => undefined);
      if (res?.status === 401) strangers++;
    };

    const client = async (c: number) => {
      for (let n = 0; killing || sent.length < STRESS.crashKeys; n++) {
        // Distinct amounts and accounts: a doubled or foreign payout could not hide among equal ones.
        const call: Sent = { key: `crash-${c}-${n}`, amount: 10_000 + sent.length };
        sent.push(call);
        const body = withdrawal(call.amount, { account_number: ACCOUNT_NUMBERS[n % ACCOUNT_NUMBERS.length] });
        call.answer = await callUntilAnswered(() => server.url, DEMO_KEY, body, { idempotencyKey: call.key, deadlineMs: 180_000 });
        await sleep(20);
      }
    };
    const killer = async () => {
      for (let k = 0; k < STRESS.crashes; k++) {
        await sleep(400 + Math.random() * 800);
        const from = Date.now();
        await server.kill9();
        kills.push({ from, to: Date.now() });
        const t = performance.now();
        await server.start();
        restartMs = Math.max(restartMs, performance.now() - t);
        await stranger();
      }
      killing = false;
    };
    await Promise.all([killer(), ...Array.from({ length: STRESS.crashClients }, (_, c) => client(c))]);

    expect(strangers).toBe(STRESS.crashes);
    const answers = sent.map((s) => s.answer!);
    const acknowledged = sent.filter((s) => s.answer!.result.status === 200);
    expect(answers.flatMap((a) => a.statuses).filter((s) => s >= 500)).toEqual([]);
    expect(answers.every((a) => a.result.status === 200 || a.result.status === 422)).toBe(true);

    const attempts = answers.flatMap((a) => a.answers);
    const durable = attempts.filter((a) => !kills.some((k) => a.at > k.from - 1_000 && a.at <= k.to));
    const { payouts, check, unanswered, rows } = await d.inspect(async (db) => ({
      rows: await waitForRows(db, merchantId, new Set(durable.map((a) => a.requestId))),
      payouts: await db.query<{ id: string; amount: number }>('SELECT id, amount FROM payouts WHERE merchant_id = $1', [merchantId]),
      check: await ledgerCheck(db, merchantId),
      unanswered: await db.query('SELECT key FROM idempotency_keys WHERE response_status IS NULL'),
    }));
    const inDb = new Map(payouts.map((p) => [p.id, p.amount]));
    const ackIds = acknowledged.map((s) => s.answer!.result.body.id as string);
    // Exactly once: every acknowledged id is there with its amount, and nothing else is.
    expect(new Set(ackIds).size).toBe(ackIds.length);
    for (const s of acknowledged) expect(inDb.get(s.answer!.result.body.id)).toBe(s.amount);
    expect(payouts.length).toBe(acknowledged.length);
    expect(unanswered).toEqual([]);
    expectLedgerExact(check, { available: opening - acknowledged.reduce((sum, s) => sum + s.amount, 0) });

    // The request log, written in batches off the request path: one row per request that reached the
    // core, under its request-id and with its status; none for the strangers' 401s. A kill -9 may take
    // the last unwritten batch (200 ms) with it: an answer that arrived over 1 s before a kill was asked
    // for, or after the process was gone, must be there.
    const logged = new Map(rows.map((r) => [r.id, r]));
    expect(rows.filter((r) => r.status === 401 || r.key_id !== rows[0]!.key_id)).toEqual([]);
    const nextKill = (at: number) => kills.find((k) => k.from >= at)?.from;
    const missing = durable.filter((a) => logged.get(a.requestId)?.status !== a.status);
    expect(missing.map((a) => ({ ...a, msBeforeNextKill: nextKill(a.at) === undefined ? 'none' : nextKill(a.at)! - a.at }))).toEqual([]);
    expect(rows.length).toBeLessThanOrEqual(answers.reduce((n, a) => n + a.attempts, 0));
    const ours = new Set(sent.map((s) => s.key));
    // Besides the withdrawals, only the opening get_balance (d.balance()) may be there.
    const others = rows.filter((r) => r.action !== 'withdraw' || !ours.has(r.idempotency_key!)).map((r) => `${r.action} ${r.status}`);
    expect(others.length).toBeLessThanOrEqual(1);
    expect(others.filter((o) => o !== 'get_balance 200')).toEqual([]);

    recordFigures(`crashes on ${backend}`, {
      'request log rows': rows.length,
      'answered attempts': attempts.length,
      'answered just before a kill, not logged': attempts.filter((a) => !logged.has(a.requestId)).length,
      '401s sent (not logged)': strangers,
      'kill -9 survived': STRESS.crashes,
      'slowest restart ms': Math.round(restartMs),
      withdrawals: sent.length,
      acknowledged: acknowledged.length,
      attempts: answers.reduce((n, a) => n + a.attempts, 0),
      'network errors retried': answers.reduce((n, a) => n + a.networkErrors, 0),
      'payouts in db': payouts.length,
      lost: acknowledged.filter((s) => !inDb.has(s.answer!.result.body.id)).length,
      'doubled or unrequested': payouts.length - new Set(ackIds).size,
    });
  });
});
