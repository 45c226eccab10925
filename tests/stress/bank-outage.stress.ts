// A bank outage end to end, through one `npm start` server (the API and the console): the operator marks BNI down
// (`npm run merchant -- bank-down`), BANK_OUTAGE_PAYOUTS payouts to it accumulate pending while another bank's
// settle, the console's payouts list, search and balance pages are timed meanwhile, then `bank-up`: the backlog
// settles, every event reaches a real HTTP receiver, and the ledger is exact.
// Size: 200,000 payouts in the full run (npm run test:stress), 5,000 in the quick one inside npm test (200,000 take
// minutes on a 2-core machine: the webhooks alone are 420,000 deliveries); BANK_OUTAGE_PAYOUTS overrides either.
// The embedded database runs the quick size in both (one process; the outage's size is PostgreSQL's case).
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi } from '../helpers/api-server';
import { signInToConsole } from '../../testing/console-session';
import { DEMO_KEY, ROOT } from '../../testing/server-process';
import { Deployment, ledgerCheck, stressBackends } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, SIZE } from './figures';
import { runPool } from './load';

const SIZED = Number(process.env.BANK_OUTAGE_PAYOUTS ?? (SIZE === 'quick' ? 5_000 : 200_000));
const payoutsOn = (backend: string) => (backend === 'pglite' ? Math.min(SIZED, 5_000) : SIZED);
/** One payout in 21 goes to the bank that stays up, beside them: its settlement goes on throughout. */
const toOtherBank = (n: number) => n % 21 === 20;
const BATCH = 1_000;
const SEARCHED = '5550001234';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Counts what arrives, by event id (a redelivery is counted once, and seen): 204 to everything. */
async function countingReceiver() {
  const seen = new Map<string, string>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data: { object: { id: string } } };
      seen.set(event.id, `${event.type} ${event.data.object.id}`);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, seen, requests: () => requests, close: () => new Promise((r) => server.close(r)) };
}

/** The operator's command, as a person runs it: on the database, or through the server holding the embedded one. */
async function operator(d: Deployment, ...args: string[]) {
  const where = d.databaseUrl ? { DATABASE_URL: d.databaseUrl } : { DATA_DIR: d.servers[0]!.dataDir!, DATABASE_URL: '' };
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/merchant.ts', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...where },
  });
  return JSON.parse(stdout);
}

async function count(url: string, filter: Record<string, unknown>) {
  const res = await callApi(url, DEMO_KEY, { action: 'summarize_payouts', ...filter });
  expect(res.status, res.text).toBe(200);
  return res.body.count as number;
}

async function timedGet(url: string, cookie?: string, body?: unknown) {
  const started = performance.now();
  const res = body
    ? await callApi(url, DEMO_KEY, body)
    : await fetch(url, { headers: { cookie: cookie! } }).then(async (r) => ({ status: r.status, text: await r.text() }));
  const ms = performance.now() - started;
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return ms;
}

const receivers: Awaited<ReturnType<typeof countingReceiver>>[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

describe.each(stressBackends)('a bank outage on %s', (backend) => {
  const PAYOUTS = payoutsOn(backend);
  const TOTAL = PAYOUTS + Math.floor(PAYOUTS / 20);
  it(`holds ${PAYOUTS.toLocaleString('en-US')} payouts to a bank that is down pending, reads are timed, and all settle once it is back`, async () => {
    const receiver = await countingReceiver();
    receivers.push(receiver);
    const d = await Deployment.create(backend, ['next'], { SETTLEMENT_DELAY_SECONDS: '0', LOG_LEVEL: 'warn' });
    try {
      const url = d.servers[0]!.url;
      const { merchantId } = await d.balance();
      expect((await callApi(url, DEMO_KEY, { action: 'create_test_topup', amount: 10_000_000_000 })).status).toBe(200);
      expect((await callApi(url, DEMO_KEY, { action: 'create_webhook_endpoint', url: receiver.url })).status).toBe(200);
      const down = await operator(d, 'bank-down', '--bank', 'BNI', '--for', '86400', '--reason', 'stress: bank unavailable');
      expect(down).toMatchObject({ bank_code: 'BNI' });

      // The backlog builds: batches of 1,000 from 4 clients, BNI's and (one in twenty) BCA's, a share to a failing account.
      const started = performance.now();
      await runPool([...Array(Math.ceil(TOTAL / BATCH)).keys()], 4, async (b) => {
        const payouts = Array.from({ length: Math.min(BATCH, TOTAL - b * BATCH) }, (_, i) => {
          const n = b * BATCH + i;
          const bank_code = toOtherBank(n) ? 'BCA' : 'BNI';
          const account_number = n % 50 === 0 ? '4000000002' : n % 97 === 0 ? SEARCHED : String(1_000_000_000 + n);
          return { amount: 10_000 + (n % 1000), bank_code, account_number };
        });
        const res = await callApi(url, DEMO_KEY, { action: 'create_payout_batch', payouts }, { idempotencyKey: `outage-${b}` });
        expect(res.status, res.text.slice(0, 300)).toBe(200);
      });
      const buildSeconds = (performance.now() - started) / 1000;
      // BCA's payouts settle; every BNI payout is still pending.
      const total = TOTAL;
      const bni = PAYOUTS;
      for (const deadline = Date.now() + 300_000; (await count(url, { status: 'pending' })) > bni; await sleep(500))
        if (Date.now() > deadline) throw new Error("the other bank's payouts still pending after 300 s");
      expect((await count(url, { status: 'paid' })) + (await count(url, { status: 'failed' }))).toBe(total - bni);

      // Reads while the outage holds them: the API's first page and the console's pages (p50 of 9 after a warm-up).
      const cookie = await signInToConsole(url);
      const reads: Record<string, number> = {};
      const time = async (name: string, once: () => Promise<number>) => {
        await once();
        const ms: number[] = [];
        for (let i = 0; i < 9; i++) ms.push(await once());
        reads[name] = Math.round(p50(ms) * 10) / 10;
      };
      await time('list_payouts first page', () => timedGet(url, undefined, { action: 'list_payouts', limit: 20 }));
      await time('list_payouts pending', () => timedGet(url, undefined, { action: 'list_payouts', limit: 20, status: 'pending' }));
      await time('list_payouts last4', () =>
        timedGet(url, undefined, { action: 'list_payouts', limit: 20, account_last4: SEARCHED.slice(-4) }),
      );
      await time('page /payouts', () => timedGet(`${url}/payouts`, cookie));
      await time('page /payouts?q=last4', () => timedGet(`${url}/payouts?q=${SEARCHED.slice(-4)}`, cookie));
      await time('page /balance', () => timedGet(`${url}/balance`, cookie));
      // Still held: the outage outlives the reads.
      expect(await count(url, { status: 'pending' })).toBe(bni);

      // The bank is back: the backlog settles, then every delivery ends.
      const back = performance.now();
      const up = await operator(d, 'bank-up', '--bank', 'BNI');
      expect(up).toMatchObject({ bank_code: 'BNI', outages: 1 });
      // Held until the window's end: each claimed BNI payout (a payout not yet reached by a claim settles as it is).
      expect(up.released).toBeGreaterThan(0);
      expect(up.released).toBeLessThanOrEqual(bni);
      for (const deadline = Date.now() + 600_000; (await count(url, { status: 'pending' })) > 0; await sleep(500))
        if (Date.now() > deadline) throw new Error('payouts still pending 600 s after the bank came back');
      const settleSeconds = (performance.now() - back) / 1000;
      for (const deadline = Date.now() + 1_800_000; receiver.seen.size < 2 * total; await sleep(500))
        if (Date.now() > deadline) throw new Error(`${receiver.seen.size} of ${2 * total} events delivered after 1,800 s`);
      const deliveredSeconds = (performance.now() - back) / 1000;

      // Each payout: its payout.created and exactly one payout.paid or payout.failed, each delivered; nothing else.
      const byPayout = new Map<string, string[]>();
      for (const what of receiver.seen.values()) {
        const [type, id] = what.split(' ');
        byPayout.set(id!, [...(byPayout.get(id!) ?? []), type!]);
      }
      expect(byPayout.size).toBe(total);
      for (const [id, types] of byPayout) {
        expect(types.length, id).toBe(2);
        expect(types, id).toContain('payout.created');
      }
      const check = await d.inspect((db) => ledgerCheck(db, merchantId));
      expectLedgerExact(check, { payouts: total });
      expect(check.pending).toBe(0);
      recordFigures(`bank outage (${backend})`, {
        payouts: total,
        heldPending: bni,
        released: up.released,
        buildSeconds: Math.round(buildSeconds),
        settleSecondsAfterBack: Math.round(settleSeconds * 10) / 10,
        deliveredSecondsAfterBack: Math.round(deliveredSeconds),
        webhookRequests: receiver.requests(),
        ...Object.fromEntries(Object.entries(reads).map(([k, v]) => [`${k} p50 ms`, v])),
      });
    } finally {
      await d.close();
    }
  }, 3_600_000);
});
