// The payment API in this process, over a database of the caller's, with one merchant: the core as the
// API's composition root assembles it (scripts/roots/api-runtime.ts, assembleCore), served on port 0 by
// the production app server (routing, Host guard, drain). The tests' API (tests/helpers/api-server.ts)
// and the benchmarks (explain-reads.ts, storage-breakdown.ts) both start it; the database stays the caller's.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseEnv } from '../lib/config/env';
import { API_PATH } from '../lib/contract';
import type { Db } from '../lib/db/types';
import { createLogger, type Logger } from '../lib/log';
import { createMerchant, type CreatedMerchant } from '../lib/payments/merchants/merchants';
import type { PaymentApiDeps } from '../lib/payments/pipeline/payment-api';
import type { SecretBox } from '../lib/payments/pipeline/core-settings';
import { createSecretBox } from '../lib/payments/webhooks/secret-box';
import { createAppServer, type ServedProcess } from '../lib/server/app-server';
import { createMetrics } from '../lib/server/metrics';
import { assembleCore } from '../scripts/roots/api-runtime';

export interface InProcessApiOptions {
  /** Settings of the core beyond the environment's defaults (a shorter wait, a settlement delay, group commit off). */
  settings?: Partial<PaymentApiDeps['settings']>;
  openingBalance?: number;
  merchantName?: string;
  log?: Logger;
  onGroup?: PaymentApiDeps['onGroup'];
  /** Seals webhook secrets: a test's delivery worker must open what its API sealed. */
  secretBox?: SecretBox;
}

export interface InProcessApi {
  /** The server's origin (the API is at `${url}${API_PATH}`). */
  url: string;
  db: Db;
  merchant: CreatedMerchant;
  /** One command with the merchant's key (or another: a sandbox's, say), over real HTTP; no checks of the answer. */
  call(body: Record<string, unknown>, idempotencyKey?: string, key?: string): Promise<{ status: number; text: string; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Writes the request log's buffer now. */
  flushRequestLog(): Promise<void>;
  /** Stops the server and the request log; the database stays open. */
  close(): Promise<void>;
}

/** The environment's defaults, with room for the sign-in failures that a suite's refusals add up to. */
const SETTINGS = parseEnv({ AUTH_FAILURES_PER_MINUTE: '1000' });

export async function startInProcessApi(db: Db, opts: InProcessApiOptions = {}): Promise<InProcessApi> {
  const log = opts.log ?? createLogger({ level: 'silent' });
  const { core, requestLog } = assembleCore(db, log, SETTINGS, {
    secretBox: opts.secretBox ?? createSecretBox([randomBytes(32)]),
    onGroup: opts.onGroup,
    overrides: opts.settings,
  });
  const merchant = await createMerchant(db, { name: opts.merchantName ?? 'Test Shop', openingBalance: opts.openingBalance ?? 10_000_000 });
  const runtime: ServedProcess = { db, core, metrics: createMetrics(db), settings: SETTINGS, stop: async () => requestLog?.stop() };
  const app = createAppServer({ runtime, shutdownGraceMs: 0 });
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    db,
    merchant,
    async call(body, idempotencyKey, key = merchant.secretKey) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      if (idempotencyKey) headers['x-service-idempotency'] = idempotencyKey;
      const res = await fetch(url + API_PATH, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, text, body: JSON.parse(text) };
    },
    flushRequestLog: async () => requestLog?.flush(),
    close: () => app.shutdown(),
  };
}
