// Four instances, each with its pool, through one PgBouncer in transaction mode to one PostgreSQL
// (README, Deployment): kill -9 of one instance under load, a duplicate storm and an overdraft race
// across all four, nothing lost or doubled; webhooks delivered exactly once per endpoint and event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal } from '../helpers/api-server';
import { hasPgbouncer, startPgbouncer, type Pgbouncer } from '../helpers/pgbouncer';
import { callUntilAnswered } from '../helpers/retrying-client';
import { DEMO_KEY } from '../../testing/server-process';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { Deployment, ledgerCheck } from './deployment';
import { recordFigures, STRESS } from './figures';
import { expectLedgerExact } from './ledger-assertions';
import { runPool, shuffle } from './load';

const INSTANCES = 4;
const AMOUNT = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ENV = {
  DATABASE_POOLER: 'transaction',
  DATABASE_POOL_SIZE: '10',
  SETTLEMENT_DELAY_SECONDS: '0.3',
  // Long enough that an attempt is never cut while this busy test process answers it: a cut attempt
  // is retried, which is at-least-once by design, and would hide a real double delivery.
  WEBHOOK_TIMEOUT_SECONDS: '15',
  WEBHOOK_RETRY_DELAYS_SECONDS: '0.3,0.5,1,1,1,1,1,1,1,1',
};

describe.runIf(hasPgbouncer)(`${INSTANCES} instances through one PgBouncer (transaction mode)`, () => {
  let pb: Pgbouncer;
  let d: Deployment;
  let receiver: WebhookReceiver | undefined;
  const live = new Set(Array.from({ length: INSTANCES }, (_, i) => i));
  let turn = 0;
  const pick = () => d.servers[[...live][turn++ % live.size]!]!.url;

  beforeAll(async () => {
    // Fewer server connections (8) than the instances' pools together (40): transactions share them.
    pb = await startPgbouncer({ serverPool: 8 });
    d = await Deployment.create(
      'postgres',
      Array(INSTANCES).fill('standalone'),
      { ...ENV, DATABASE_DIRECT_URL: pb.directUrl },
      {},
      { databaseUrl: pb.url, directUrl: pb.directUrl },
    );
  }, 300_000);
  afterAll(async () => {
    await d?.close();
    await receiver?.close();
    await pb?.close();
  });

  it(`kill -9 of one instance under load (${STRESS.poolerKills}x): every acknowledged payout exactly once`, async () => {
    const { merchantId, available: before } = await d.balance();
    let loading = true;
    const acknowledged: string[] = [];
    const refused: string[] = [];
    let networkErrors = 0;
    const statuses: number[] = [];
    // At most 30 each: the storm and the race below need what is left of the balance.
    const client = async (c: number) => {
      for (let n = 0; loading && n < 30; n++) {
        const answer = await callUntilAnswered(pick, DEMO_KEY, withdrawal(AMOUNT), {
          idempotencyKey: `pgb-kill-${c}-${n}`,
          delaysMs: [100, 200, 400],
        });
        statuses.push(...answer.statuses);
        networkErrors += answer.networkErrors;
        if (answer.result.status === 200) acknowledged.push(answer.result.body.id);
        else refused.push(answer.result.text);
        await sleep(20);
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, (_, c) => client(c)));
    for (let k = 0; k < STRESS.poolerKills; k++) {
      const victim = k % INSTANCES;
      await sleep(600);
      live.delete(victim);
      await d.servers[victim]!.kill9();
      await sleep(300);
      await d.servers[victim]!.start();
      live.add(victim);
    }
    await sleep(500);
    loading = false;
    await load;

    expect(refused).toEqual([]);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: acknowledged.length, available: before - acknowledged.length * AMOUNT });
    recordFigures('kill -9 through PgBouncer, 4 instances', {
      'kill -9': STRESS.poolerKills,
      payouts: acknowledged.length,
      attempts: statuses.length + networkErrors,
      'retried after a network error': networkErrors,
      '5xx retried': statuses.filter((s) => s >= 500).length,
      'lost or doubled': Math.abs(check.payouts - acknowledged.length),
    });
  }, 300_000);

  it('webhooks from then on: an endpoint, then a duplicate storm and an overdraft race across the 4 instances', async () => {
    receiver = await startWebhookReceiver();
    const endpoint = await callApi(d.servers[0]!.url, DEMO_KEY, {
      action: 'create_webhook_endpoint',
      url: receiver.endpoint('/pgb', [{ status: 200 }]),
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    receiver.trust('/pgb', endpoint.body.secret);
    const { merchantId, available: opening } = await d.balance();

    // The duplicate storm: every key sent STRESS.duplicates times, spread over the instances.
    const amount = 10_000;
    const storm = shuffle(
      Array.from({ length: STRESS.keys * STRESS.duplicates }, (_, i) => ({ key: `pgb-dup-${i % STRESS.keys}`, instance: i % INSTANCES })),
    );
    const answers = await runPool(storm, 64, async ({ key, instance }) => ({
      key,
      ...(await callUntilAnswered(() => d.servers[instance]!.url, DEMO_KEY, withdrawal(amount), { idempotencyKey: key })),
    }));
    expect(answers.flatMap((a) => a.statuses).filter((s) => s >= 500)).toEqual([]);
    const idsByKey = new Map<string, Set<string>>();
    for (const a of answers) idsByKey.set(a.key, (idsByKey.get(a.key) ?? new Set()).add(a.result.body.id));
    expect([...idsByKey.values()].every((ids) => ids.size === 1)).toBe(true);
    const afterStorm = await d.inspect((db) => ledgerCheck(db, merchantId));
    expect(afterStorm.available).toBe(opening - STRESS.keys * amount);

    // The overdraft race: more than the rest of the balance, all at once, over the instances.
    const rest = afterStorm.available;
    const each = Math.ceil((rest * 2.5) / STRESS.overdraw);
    const covered = Math.floor(rest / each);
    const race = await Promise.all(
      Array.from({ length: STRESS.overdraw }, (_, i) =>
        callUntilAnswered(() => d.servers[i % INSTANCES]!.url, DEMO_KEY, withdrawal(each), { idempotencyKey: `pgb-over-${i}` }),
      ),
    );
    expect(race.flatMap((a) => a.statuses).filter((s) => s >= 500)).toEqual([]);
    expect(race.filter((a) => a.result.status === 200).length).toBe(covered);
    expect(race.filter((a) => a.result.status === 422).length).toBe(STRESS.overdraw - covered);
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: afterStorm.payouts + covered, available: rest - covered * each });
    expect(check.available).toBeGreaterThanOrEqual(0);

    // Every delivery to the endpoint ends, and each (endpoint, event) arrived exactly once.
    const endpointId = endpoint.body.id as string;
    let deliveries: { event_id: string; status: string; attempts: number }[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250)) {
      deliveries = await d.inspect((db) =>
        db.query<{ event_id: string; status: string; attempts: number }>(
          'SELECT event_id, status, attempts, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
          [endpointId],
        ),
      );
      const pendingPayouts = await d.inspect((db) =>
        db.query(`SELECT 1 FROM payouts WHERE merchant_id = $1 AND status = 'pending' LIMIT 1`, [merchantId]),
      );
      if (pendingPayouts.length === 0 && deliveries.every((x) => x.status !== 'pending')) break;
    }
    expect(deliveries.filter((x) => x.status !== 'succeeded')).toEqual([]);
    const got = receiver.at('/pgb');
    const retried = deliveries
      .filter((x) => x.attempts !== 1)
      .map((x) => ({ ...x, received: got.filter((r) => r.id === x.event_id).length }));
    expect(got.map((r) => r.id).sort()).toEqual(deliveries.map((x) => x.event_id).sort());
    expect(got.every((r) => r.verified)).toBe(true);
    // Each payout of the storm and the race: created, then paid or failed, both delivered.
    expect(deliveries.length).toBeGreaterThanOrEqual(2 * (STRESS.keys + covered));
    recordFigures('duplicate storm and overdraft race through PgBouncer, 4 instances', {
      'storm requests': answers.length,
      'storm keys': STRESS.keys,
      'race withdrawals': STRESS.overdraw,
      'race paid': covered,
      'final available': check.available,
      'webhook deliveries': deliveries.length,
      'received more than once': got.length - new Set(got.map((r) => r.id)).size,
      'deliveries that took a second attempt': retried.length,
    });
  }, 300_000);
});
