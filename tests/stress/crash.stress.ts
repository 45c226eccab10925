// kill -9 during a withdrawal load whose clients retry with the same keys: nothing lost, nothing doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawal } from '../helpers/api-server';
import { callUntilAnswered, type AnsweredCall } from '../helpers/retrying-client';
import { DEMO_KEY } from '../helpers/server-process';
import { ACCOUNT_NUMBERS } from './accounts';
import { Deployment, ledgerCheck, stressBackends } from './deployment';
import { recordFigures, STRESS } from './figures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(stressBackends)('crashes under load on %s', (backend) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create(backend, ['standalone']);
  });
  afterAll(() => d?.close());

  it(`survives ${STRESS.crashes} kill -9 with every acknowledged payout exactly once`, async () => {
    const server = d.servers[0]!;
    const { merchantId, available: opening } = await d.balance();
    type Sent = { key: string; amount: number; answer?: AnsweredCall<any> };
    const sent: Sent[] = [];
    let killing = true;
    let restartMs = 0;

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
        await server.kill9();
        const t = performance.now();
        await server.start();
        restartMs = Math.max(restartMs, performance.now() - t);
      }
      killing = false;
    };
    await Promise.all([killer(), ...Array.from({ length: STRESS.crashClients }, (_, c) => client(c))]);

    const answers = sent.map((s) => s.answer!);
    const acknowledged = sent.filter((s) => s.answer!.result.status === 200);
    expect(answers.flatMap((a) => a.statuses).filter((s) => s >= 500)).toEqual([]);
    expect(answers.every((a) => a.result.status === 200 || a.result.status === 422)).toBe(true);

    const { payouts, check, unanswered } = await d.inspect(async (db) => ({
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
    expect(check.ledger).toBe(check.available);
    expect(check.pending).toBe(check.pendingSum);
    expect(check.available).toBe(opening - acknowledged.reduce((sum, s) => sum + s.amount, 0));

    recordFigures(`crashes on ${backend}`, {
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
