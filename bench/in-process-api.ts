// The core on node:http over a database, with one merchant: what the test suite's startTestApi does,
// for bench scripts (that helper imports vitest). Used by explain-reads.ts and storage-breakdown.ts.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../lib/db/types';
import { createLogger } from '../lib/log';
import { createMerchant } from '../lib/payments/keys/merchants';
import { createPaymentCore } from '../lib/payments/pipeline/payment-api';
import { createRequestLog } from '../lib/payments/keys/request-log';
import { createSecretBox } from '../lib/payments/webhooks/secret-box';
import { nodeHandler } from '../lib/server/node-http';
import { API_PATH } from '../tests/helpers/api-path';

export async function startInProcessApi(db: Db, opts: { openingBalance: number; settlementDelaySeconds: number }) {
  const silent = createLogger({ level: 'silent' });
  const requestLog = createRequestLog(db, silent);
  const core = createPaymentCore({
    db,
    requestLog,
    log: silent,
    settings: {
      idempotencyTtlSeconds: 86_400,
      idempotencyWaitSeconds: 5,
      settlementDelaySeconds: opts.settlementDelaySeconds,
      authFailuresPerMinute: 1_000,
      secretBox: createSecretBox([randomBytes(32)]),
    },
  });
  const merchant = await createMerchant(db, { name: 'Busy', openingBalance: opts.openingBalance });
  const server = http.createServer(nodeHandler(core));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PATH}`;
  return {
    merchant,
    /** As the merchant, or as another key (`key`: a sandbox's, say). */
    async call(body: Record<string, unknown>, idempotencyKey?: string, key = merchant.secretKey) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      if (idempotencyKey) headers['x-service-idempotency'] = idempotencyKey;
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, text, body: JSON.parse(text) };
    },
    async close() {
      await requestLog.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
