// What events and webhooks cost a withdrawal, in the rounds of `npm run bench` (bench/server-cases.ts): the standalone
// server beside the same server whose merchant has one endpoint subscribed to every event (a local receiver answering
// 204 at once), on databases prepared alike, under the same withdrawals in the same interleaved rounds. Every
// withdrawal writes its event either way (the outbox is not optional); the endpoint adds a delivery row and its POST,
// signed, made by the same process while the load runs. No server of the rounds settles (settlement an hour away), so
// its rounds measure withdrawals and their payout.created deliveries alone; after each of its rounds its deliveries
// are drained before the next server is measured, and how fast they drained is reported too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type autocannon from 'autocannon';
import { API_PATH } from '../testing/api-path';
import { DEMO_KEY } from '../testing/server-process';
import { median, pairOfRounds } from './paired';

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

/** One API call as the demo merchant (the tests' helper imports vitest, which a bench process cannot load). */
async function callApi(serverUrl: string, body: unknown) {
  const res = await fetch(serverUrl + API_PATH, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: unknown[] } };
}

/** A receiver counting what it was sent, the demo merchant of one server subscribed to it, and the rates of its rounds. */
export class HookedMerchant {
  private received = 0;
  private withdrawals = 0;
  private readonly receiver = http.createServer((req, res) => req.resume().once('end', () => (this.received++, res.writeHead(204).end())));
  private readonly during: number[] = [];
  private readonly drains: number[] = [];

  async subscribe(serverUrl: string) {
    await new Promise<void>((resolve) => this.receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(this.receiver.address() as AddressInfo).port}/hook`;
    const ep = await callApi(serverUrl, { action: 'create_webhook_endpoint', url });
    if (ep.status !== 200) throw new Error(`create_webhook_endpoint answered ${ep.status}`);
  }

  /** Runs `load`, then waits until every delivery it caused is done; `measured` rounds count, a warm-up does not. */
  async round(serverUrl: string, seconds: number, load: () => Promise<autocannon.Result>, measured: boolean) {
    const before = this.received;
    const result = await load();
    this.withdrawals += result.requests.total;
    const atEnd = this.received;
    const stopped = performance.now();
    for (;;) {
      const res = await callApi(serverUrl, { action: 'list_webhook_deliveries', status: 'pending', limit: 1 });
      if (res.body.data.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const drainSeconds = (performance.now() - stopped) / 1000;
    if (measured) {
      this.during.push((atEnd - before) / seconds);
      this.drains.push((this.received - atEnd) / drainSeconds);
    }
    return result;
  }

  /** From the rounds of `standalone` (no endpoint) and `hooked`, keyed `<variant> withdraw`. */
  figures(mode: string, rounds: Map<string, autocannon.Result[]>): WebhookCostFigures {
    const pair = pairOfRounds(rounds, 'hooked withdraw', 'standalone withdraw');
    // Each withdrawal's payout.created reached the receiver: an endpoint that silently got nothing cannot pass.
    if (this.received < this.withdrawals) throw new Error(`${this.received} deliveries for ${this.withdrawals} withdrawals`);
    return {
      mode,
      withoutEndpoint: pair.without,
      withEndpoint: pair.withCost,
      ratio: pair.ratio,
      deliveredDuringLoadPerSecond: Math.round(median(this.during)),
      drainPerSecond: Math.round(median(this.drains)),
      delivered: this.received,
    };
  }

  close() {
    this.receiver.closeAllConnections();
    this.receiver.close();
  }
}
