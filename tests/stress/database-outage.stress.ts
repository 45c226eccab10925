// PostgreSQL drops the app's connections several times under a withdrawal load (pg_terminate_backend,
// as a server restart or a failover does): requests that cannot reach it get 503 with Retry-After,
// never 500; the pool recovers without a restart; every acknowledged payout exists once; the
// background jobs resume.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal } from '../helpers/api-server';
import { postgresUrl } from '../../testing/databases';
import { callUntilAnswered } from '../helpers/retrying-client';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, ledgerCheck } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, SIZE } from './figures';

const CLIENTS = 12;
const AMOUNT = 10_000;
const OUTAGES = SIZE === 'quick' ? 3 : 8;

describe.runIf(postgresUrl)('PostgreSQL drops the connections of a loaded instance', () => {
  let d: Deployment;
  let appName: string;
  beforeAll(async () => {
    appName = `outage_${process.pid}_${Date.now()}`;
    d = await Deployment.create('postgres', ['standalone'], { SETTLEMENT_DELAY_SECONDS: '0' }, { application_name: appName });
  }, 300_000);
  afterAll(() => d?.close());

  it(`survives ${OUTAGES} drops: 503s not 500s, pool recovers, nothing lost or doubled, jobs resume`, async () => {
    const server = d.servers[0]!;
    const { merchantId, available: before } = await d.balance();
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    // Only this test's own connections: the server is shared with other suites.
    const dropConnections = async () =>
      (await admin.query(`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1`, [appName]))
        .rows[0].n as number;

    let stopLoad = false;
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    const retryAfter: (string | null)[] = [];
    const client = async (c: number) => {
      for (let i = 0; !stopLoad; i++) {
        const answer = await callUntilAnswered(() => server.url, DEMO_KEY, withdrawal(AMOUNT), {
          idempotencyKey: `outage-${c}-${i}`,
          delaysMs: [100, 200, 400],
        });
        statuses.push(...answer.statuses);
        if (answer.result.status === 200) acknowledged.push(answer.result.body.id);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    // A probe that records what a 503 looks like.
    const probe = async () => {
      while (!stopLoad) {
        const res = await callApi(server.url, DEMO_KEY, { action: 'get_balance' });
        if (res.status === 503) retryAfter.push(res.headers.get('retry-after'));
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const probing = probe();

    let dropped = 0;
    for (let i = 0; i < OUTAGES; i++) {
      await new Promise((r) => setTimeout(r, 400));
      dropped += await dropConnections();
    }
    await new Promise((r) => setTimeout(r, 500));
    stopLoad = true;
    await Promise.all([load, probing]);
    await admin.end();

    // Recovered without a restart: ready, serving, and settlement caught up with every payout.
    expect((await fetch(server.url + '/readyz')).status).toBe(200);
    expect((await callApi(server.url, DEMO_KEY, { action: 'get_balance' })).status).toBe(200);
    await expect
      .poll(async () => (await callApi(server.url, DEMO_KEY, { action: 'list_payouts', status: 'pending', limit: 1 })).body.data.length, {
        timeout: 30_000,
      })
      .toBe(0);
    expect(server.starts).toBe(1);

    expect(dropped).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 500)).toEqual([]);
    expect(statuses.filter((s) => s > 500 && s !== 503)).toEqual([]);
    expect(retryAfter.every((v) => v === '1')).toBe(true);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: acknowledged.length });
    expect(check.available + check.pending).toBeLessThanOrEqual(before);
    recordFigures('PostgreSQL drops the connections under load', {
      outages: OUTAGES,
      'connections dropped': dropped,
      attempts: statuses.length,
      '503 (Retry-After)': statuses.filter((s) => s === 503).length + retryAfter.length,
      '500': statuses.filter((s) => s === 500).length,
      'acknowledged payouts': acknowledged.length,
      payouts: check.payouts,
      'lost or doubled': Math.abs(check.payouts - acknowledged.length),
      'restarts of the app': server.starts - 1,
    });
  }, 300_000);
});
