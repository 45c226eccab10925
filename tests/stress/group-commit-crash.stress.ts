// kill -9 while groups of withdrawals are in flight, two instances on one PostgreSQL: every acknowledged
// payout exists exactly once with its ledger entry and its event, nothing else exists, the money is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credit } from '@/lib/payments/ledger/ledger';
import { postgresUrl } from '../../testing/databases';
import { withdrawal } from '../helpers/api-server';
import { callUntilAnswered, type AnsweredCall } from '../helpers/retrying-client';
import { DEMO_KEY, type ServerProcess } from '../../testing/server-process';
import { ACCOUNT_NUMBERS } from './accounts';
import { Deployment, ledgerCheck } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, STRESS } from './figures';
import type { JsonAnswer } from '../helpers/json-answer';

const METRICS_TOKEN = 'stress-metrics-token-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Groups of more than one withdrawal this instance has committed (its /metrics histogram). */
async function groupsOfMany(server: ServerProcess): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const count = Number(/^payments_withdraw_group_size_count (\d+)/m.exec(text)?.[1] ?? 0);
  const ones = Number(/^payments_withdraw_group_size_bucket\{le="1"\} (\d+)/m.exec(text)?.[1] ?? 0);
  return count - ones;
}

describe.runIf(postgresUrl)('kill -9 while groups of withdrawals are in flight (two instances, PostgreSQL)', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create('postgres', ['standalone', 'standalone'], { METRICS_TOKEN, LOG_LEVEL: 'warn' });
  }, 120_000);
  afterAll(() => d?.close());

  it(`survives ${STRESS.crashes} kill -9 of either instance with every acknowledged payout exactly once`, async () => {
    const { merchantId } = await d.balance();
    // Enough that no withdrawal of the run is refused: each one must be paid exactly once.
    await d.inspect((db) => db.transaction((tx) => credit(tx, merchantId, 1_000_000_000_000, 'adjustment', 'group-crash')));
    const { available: opening } = await d.balance();
    type Sent = { key: string; amount: number; answer?: AnsweredCall<JsonAnswer> };
    const sent: Sent[] = [];
    let killing = true;
    let groupsBeforeKills = 0;
    // Both instances take the load; a client whose instance is down retries on the other one.
    const live = () => d.servers.filter((s) => s.running);
    const client = async (c: number) => {
      for (let n = 0; killing; n++) {
        const call: Sent = { key: `group-crash-${c}-${n}`, amount: 10_000 + sent.length };
        sent.push(call);
        const body = withdrawal(call.amount, { account_number: ACCOUNT_NUMBERS[n % ACCOUNT_NUMBERS.length] });
        let turn = c;
        call.answer = await callUntilAnswered(() => (live()[turn++ % Math.max(1, live().length)] ?? d.servers[0]!).url, DEMO_KEY, body, {
          idempotencyKey: call.key,
          deadlineMs: 120_000,
          delaysMs: [200, 400, 800],
        });
      }
    };
    const killer = async () => {
      for (let k = 0; k < STRESS.crashes; k++) {
        const victim = d.servers[k % 2]!;
        await sleep(600 + Math.random() * 600);
        groupsBeforeKills += await groupsOfMany(victim);
        await victim.kill9();
        await victim.start();
      }
      await sleep(300);
      killing = false;
    };
    await Promise.all([killer(), ...Array.from({ length: STRESS.groupCrashClients }, (_, c) => client(c))]);

    const answers = sent.map((s) => s.answer!);
    expect(answers.flatMap((a) => a.statuses).filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(answers.map((a) => a.result.status).filter((s) => s !== 200)).toEqual([]);
    // Groups were being committed on the instances that were killed.
    expect(groupsBeforeKills).toBeGreaterThan(0);

    const { payouts, entries, events, check, unanswered } = await d.inspect(async (db) => ({
      payouts: await db.query<{ id: string; amount: number }>('SELECT id, amount FROM payouts WHERE merchant_id = $1', [merchantId]),
      entries: await db.query<{ reference_id: string; amount: number }>(
        `SELECT reference_id, amount FROM ledger_entries WHERE merchant_id = $1 AND kind = 'payout'`,
        [merchantId],
      ),
      events: await db.query<{ object_id: string }>(`SELECT object_id FROM events WHERE merchant_id = $1 AND type = 'payout.created'`, [
        merchantId,
      ]),
      check: await ledgerCheck(db, merchantId),
      unanswered: await db.query('SELECT key FROM idempotency_keys WHERE response_status IS NULL'),
    }));
    const ackIds = answers.map((a) => a.result.body.id as string);
    const inDb = new Map(payouts.map((p) => [p.id, p.amount]));
    // Exactly once, with its amount, its ledger entry and its event; nothing that no client was told about.
    expect(new Set(ackIds).size).toBe(ackIds.length);
    expect(payouts.length).toBe(ackIds.length);
    sent.forEach((s) => expect(inDb.get(s.answer!.result.body.id)).toBe(s.amount));
    expect(new Map(entries.map((e) => [e.reference_id, -e.amount]))).toEqual(inDb);
    expect(events.map((e) => e.object_id).sort()).toEqual([...ackIds].sort());
    expect(unanswered).toEqual([]);
    expectLedgerExact(check, { available: opening - sent.reduce((sum, s) => sum + s.amount, 0) });

    recordFigures('kill -9 with groups in flight (two instances, postgres)', {
      'kill -9 survived': STRESS.crashes,
      'groups of more than one before the kills': groupsBeforeKills,
      withdrawals: sent.length,
      attempts: answers.reduce((n, a) => n + a.attempts, 0),
      'network errors retried': answers.reduce((n, a) => n + a.networkErrors, 0),
      '503 answers retried': answers.flatMap((a) => a.statuses).filter((s) => s === 503).length,
      'payouts in db': payouts.length,
      lost: ackIds.filter((id) => !inDb.has(id)).length,
      'doubled or unrequested': payouts.length - new Set(ackIds).size,
    });
  });
});
