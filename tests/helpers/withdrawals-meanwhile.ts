import type { Queryable } from '@/lib/db/types';
import { callApi, withdrawal, type TestApi } from './api-server';

/**
 * While `run` goes (a migration, say): four clients withdrawing back to back through the API, and every
 * 20 ms a look at pg_locks for a writer (RowExclusiveLock) waiting for a lock on one of `tables`. What a
 * test of "this change does not block writes" needs: how long `run` took, every answer's status and
 * time, and the waiting samples. `marginMs` of load before and after `run`.
 */
export async function withWithdrawalsMeanwhile<T>(api: TestApi, db: Queryable, tables: string[], run: () => Promise<T>, marginMs = 0) {
  let going = true;
  const during: number[] = [];
  const statuses = new Map<number, number>();
  const clients = Array.from({ length: 4 }, async () => {
    while (going) {
      const started = performance.now();
      const res = await callApi(api.url, api.merchant.secretKey, withdrawal(10_000), { idempotencyKey: crypto.randomUUID() });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      during.push(performance.now() - started);
    }
  });
  let blockedSamples = 0;
  let samples = 0;
  const sampler = (async () => {
    while (going) {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'relation' AND mode = 'RowExclusiveLock'
           AND relation = ANY($1::regclass[])`,
        [tables],
      );
      samples++;
      if (row!.n > 0) blockedSamples++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, marginMs));
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, marginMs));
  going = false;
  await Promise.all([...clients, sampler]);
  return { result, ms, during, statuses, blockedSamples, samples, slowest: Math.max(...during) };
}
