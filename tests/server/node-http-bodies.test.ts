// The node:http mount answers requests whose body it does not read to the end, and keeps the connection usable.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { Db } from '@/lib/db/types';
import { createLogger } from '@/lib/log';
import { API_PATH, startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../helpers/databases';

const MiB = 1024 * 1024;
let db: Db;
let api: TestApi;
let logged = '';
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(headers: Record<string, string>, body: Buffer | string, abortAfterBytes?: number) {
  return new Promise<{ status: number; code?: string; socket: unknown }>((resolve, reject) => {
    const url = new URL(api.url + API_PATH);
    const req = http.request({ host: url.hostname, port: url.port, path: API_PATH, method: 'POST', agent, headers, timeout: 5000 }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, code: JSON.parse(text).error?.code, socket: req.socket }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out: the connection hangs')));
    req.on('error', reject);
    if (abortAfterBytes === undefined) return req.end(body);
    req.write(Buffer.from(body).subarray(0, abortAfterBytes), () => setTimeout(() => req.destroy(), 50));
  });
}

const json = { 'content-type': 'application/json' };
const big = JSON.stringify({ action: 'get_balance', description: 'x'.repeat(MiB) });

beforeAll(async () => {
  db = await pgliteBackend.open();
  const log = createLogger({ level: 'debug', destination: new Writable({ write: (c, _e, cb) => ((logged += c), cb()) }) });
  api = await startTestApi(db, { log });
});
afterAll(async () => {
  agent.destroy();
  await api.close();
  await db.close();
});

describe('bodies the API stops reading', () => {
  it('answers a 1 MiB body with a wrong key 401, and the same connection serves the next request', async () => {
    const first = await post({ ...json, authorization: 'Bearer nope' }, big);
    expect(first.status).toBe(401);
    const next = await post({ ...json, authorization: `Bearer ${api.merchant.secretKey}` }, '{"action":"get_balance"}');
    expect(next.status).toBe(200);
  });

  it('delivers the 413 for a chunked 1 MiB body instead of resetting the connection, and stays usable', async () => {
    const auth = { ...json, authorization: `Bearer ${api.merchant.secretKey}` };
    const tooBig = await post({ ...auth, 'transfer-encoding': 'chunked' }, big);
    expect(tooBig).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await post(auth, '{"action":"get_balance"}')).status).toBe(200);
  });

  it('treats a client that leaves mid-body as its own failure: nothing logged as an internal error', async () => {
    const auth = { ...json, authorization: `Bearer ${api.merchant.secretKey}`, 'transfer-encoding': 'chunked' };
    await post(auth, '{"action":"get_balance","description":"' + 'x'.repeat(10_000), 5_000).catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    expect(logged).not.toContain('unhandled error');
    expect((await post({ ...json, authorization: `Bearer ${api.merchant.secretKey}` }, '{"action":"get_balance"}')).status).toBe(200);
  });
});
