// The node:http mount answers requests whose body it does not read to the end, and keeps the connection usable.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { Db } from '@/lib/db/types';
import { createLogger } from '@/lib/log';
import { API_PATH, startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';

const MiB = 1024 * 1024;
let db: Db;
let api: TestApi;
let logged = '';
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(headers: Record<string, string>, body: Buffer | string, abortAfterBytes?: number) {
  return new Promise<{ status: number; code?: string; socket: unknown }>((resolve, reject) => {
    const url = new URL(api.url + API_PATH);
    const req = http.request(
      { host: url.hostname, port: url.port, path: API_PATH, method: 'POST', agent, headers, timeout: 5000 },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, code: JSON.parse(text).error?.code, socket: req.socket }));
      },
    );
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

  it('answers a request whose client left while its key was being checked, instead of holding it forever', async () => {
    // A slow database (the injected fault): the key check takes 200 ms, and the client is gone by its end.
    let log = '';
    const slowDb: Db = {
      ...db,
      query: async (sql, params) => (sql.includes('api_keys') && (await new Promise((r) => setTimeout(r, 200))), db.query(sql, params)),
    } as Db;
    const slow = await startTestApi(slowDb, {
      log: createLogger({ level: 'debug', destination: new Writable({ write: (c, _e, cb) => ((log += c), cb()) }) }),
    });
    const url = new URL(slow.url);
    // Headers and part of the body, then gone at once: the socket closes before the core asks for the body.
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${API_PATH} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
          `Authorization: Bearer ${slow.merchant.secretKey}\r\nContent-Length: 100\r\n\r\n{"action":`,
        () => socket.destroy(),
      );
    });
    // The core answered it (400: the body could not be read) and so let go of it.
    await expect.poll(() => log.match(/"status":400/g)?.length ?? 0, { timeout: 5_000 }).toBe(1);
    await slow.close();
  });
});
