// A rolling deploy: two instances on one PostgreSQL restarted one after the other under a steady
// withdrawal load. The "load balancer" takes an instance out of rotation, then sends it SIGTERM:
// requests already on it must be answered (no 5xx, no reset), and nothing is lost or doubled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl } from '../../testing/databases';
import { withdrawal } from '../helpers/api-server';
import { callUntilAnswered } from '../helpers/retrying-client';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, ledgerCheck } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, SIZE } from './figures';

const CLIENTS = 16;
const AMOUNT = 10_000;

describe.runIf(postgresUrl)('rolling restart of two instances on one PostgreSQL', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create('postgres', ['next', 'standalone']);
  }, 300_000);
  afterAll(() => d?.close());

  it('restarts each instance under load: no 5xx, no reset, every acknowledged payout exactly once', async () => {
    const { merchantId, available: before } = await d.balance();
    const inRotation = new Set([0, 1]);
    let turn = 0;
    const pick = () => {
      const live = [...inRotation];
      return d.servers[live[turn++ % live.length]!]!.url;
    };

    let stopLoad = false;
    let sent = 0;
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    let networkErrors = 0;
    let refused = 0;
    const client = async (c: number) => {
      for (let i = 0; !stopLoad; i++) {
        const key = `roll-${c}-${i}`;
        sent++;
        const answer = await callUntilAnswered(pick, DEMO_KEY, withdrawal(AMOUNT), { idempotencyKey: key, delaysMs: [100, 200, 400] });
        statuses.push(...answer.statuses);
        networkErrors += answer.networkErrors;
        if (answer.result.status === 200) acknowledged.push(answer.result.body.id);
        // Once the demo balance is spent the answer is a final 422, which is right too.
        else if (answer.result.body?.error?.code === 'insufficient_funds') refused++;
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

    const restarts: { instance: number; cleanExit: boolean; downMs: number }[] = [];
    const rounds = SIZE === 'quick' ? 1 : 3;
    for (let round = 0; round < rounds; round++) {
      for (const i of [0, 1]) {
        await new Promise((r) => setTimeout(r, 500)); // steady load on both before each step
        inRotation.delete(i);
        const t = performance.now();
        const cleanExit = (await d.servers[i]!.stop(30_000)) && d.servers[i]!.child?.exitCode === 0;
        await d.servers[i]!.start();
        inRotation.add(i);
        restarts.push({ instance: i, cleanExit, downMs: Math.round(performance.now() - t) });
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    stopLoad = true;
    await load;

    expect(restarts.every((r) => r.cleanExit)).toBe(true);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(networkErrors).toBe(0);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);

    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: acknowledged.length, available: before - acknowledged.length * AMOUNT });
    recordFigures('rolling restart, two instances on one PostgreSQL', {
      restarts: restarts.length,
      'clean exits (SIGTERM, exit 0)': restarts.filter((r) => r.cleanExit).length,
      'slowest stop+start ms': Math.max(...restarts.map((r) => r.downMs)),
      requests: sent,
      attempts: statuses.length + networkErrors,
      '5xx': statuses.filter((s) => s >= 500).length,
      'resets or refused': networkErrors,
      'refused, balance spent (422)': refused,
      payouts: check.payouts,
      'lost or doubled': Math.abs(check.payouts - acknowledged.length),
    });
    expect(acknowledged.length + refused).toBe(sent);
  }, 300_000);
});
