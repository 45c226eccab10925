// What events and webhooks cost a withdrawal: the same server, withdrawals of a merchant without
// endpoints against those of a merchant with one endpoint subscribed to every event (a local
// receiver answering 204 at once), in interleaved rounds. Every withdrawal writes its event either
// way (the outbox is not optional); the endpoint adds a delivery row and its POST, signed, made by
// the same process while the load runs. Before each round the previous round's deliveries are
// drained, and how fast they drained is reported too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { openDb } from '../lib/db/open-db';
import { createMerchant } from '../lib/payments/keys/merchants';
import { API_PATH } from '../tests/helpers/api-path';
import { ServerProcess } from '../tests/helpers/server-process';
import { drive, WARM_UP_S } from './drive';

const PAYOUT = { action: 'withdraw', amount: 10_000, bank_code: 'BCA', account_number: '1234567890' };

export interface WebhookCostFigures {
  mode: string;
  withoutEndpoint: number;
  withEndpoint: number;
  ratio: number;
  /** Deliveries per second while the withdrawals ran, and after they stopped (the backlog draining). */
  deliveredDuringLoadPerSecond: number;
  drainPerSecond: number;
  delivered: number;
}

/** One API call (the tests' helper imports vitest, which a bench process cannot load). */
async function callApi(url: string, key: string, body: unknown) {
  const res = await fetch(url + API_PATH, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: unknown[] } };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function withdrawals(url: string, key: string, connections: number, seconds: number) {
  const r = await drive(
    url,
    { path: API_PATH, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: PAYOUT },
    connections,
    seconds,
    (req) => ({
      ...req,
      headers: { ...req.headers, 'x-service-idempotency': randomUUID() },
    }),
  );
  if (r.non2xx + r.errors > 0) throw new Error(`withdrawals answered ${r.non2xx} non-2xx and ${r.errors} errors`);
  return r.requests.average;
}

/** Waits until the merchant's deliveries are all done; answers how many finished in that time. */
async function drain(url: string, key: string): Promise<void> {
  for (;;) {
    const res = await callApi(url, key, { action: 'list_webhook_deliveries', status: 'pending', limit: 1 });
    if (res.body.data.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function webhookCost(
  mode: 'postgres' | 'embedded',
  where: { databaseUrl?: string; dataDir?: string },
  distDir: string,
  connections: number,
  seconds: number,
  rounds: number,
): Promise<WebhookCostFigures> {
  let received = 0;
  const receiver = http.createServer((req, res) => req.resume().once('end', () => (received++, res.writeHead(204).end())));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The merchants exist before the server opens an embedded database (it holds it alone then).
  const db = await openDb({ ...where, poolSize: 2 });
  const plain = await createMerchant(db, { name: 'No endpoints', openingBalance: 1_000_000_000_000 });
  const hooked = await createMerchant(db, { name: 'One endpoint', openingBalance: 1_000_000_000_000 });
  await db.close();
  // Settlement an hour away: the rounds measure withdrawals and their payout.created deliveries alone.
  const server = await new ServerProcess({
    kind: 'standalone',
    ...where,
    distDir,
    env: { LOG_LEVEL: 'warn', SETTLEMENT_DELAY_SECONDS: '3600' },
  }).start();
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const ep = await callApi(server.url, hooked.secretKey, { action: 'create_webhook_endpoint', url });
    if (ep.status !== 200) throw new Error(`create_webhook_endpoint answered ${ep.status}`);
    await withdrawals(server.url, plain.secretKey, connections, WARM_UP_S);
    await withdrawals(server.url, hooked.secretKey, connections, WARM_UP_S);
    await drain(server.url, hooked.secretKey);
    const without: number[] = [];
    const withHook: number[] = [];
    const duringLoad: number[] = [];
    const drainRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      without.push(await withdrawals(server.url, plain.secretKey, connections, seconds));
      const before = received;
      withHook.push(await withdrawals(server.url, hooked.secretKey, connections, seconds));
      const atEnd = received;
      const stopped = performance.now();
      await drain(server.url, hooked.secretKey);
      const drainSeconds = (performance.now() - stopped) / 1000;
      duringLoad.push((atEnd - before) / seconds);
      drainRates.push((received - atEnd) / drainSeconds);
      process.stdout.write(
        `  ${mode.padEnd(8)} webhooks round ${round + 1}: withdraw ${Math.round(without.at(-1)!)}/s without endpoints, ${Math.round(withHook.at(-1)!)}/s with one; ` +
          `${atEnd - before} delivered during the load, ${received - atEnd} after it in ${drainSeconds.toFixed(1)} s\n`,
      );
    }
    // Paired: each round's rate with an endpoint over the rate without, seconds apart; then the median.
    const ratio = median(withHook.map((h, i) => h / without[i]!));
    return {
      mode,
      withoutEndpoint: Math.round(median(without)),
      withEndpoint: Math.round(median(withHook)),
      ratio: Math.round(ratio * 100) / 100,
      deliveredDuringLoadPerSecond: Math.round(median(duringLoad)),
      drainPerSecond: Math.round(median(drainRates)),
      delivered: received,
    };
  } finally {
    await server.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}
