// A body of hundreds of megabytes at a console route is refused at 16 KiB (413), without the
// process that also serves the API and holds the database reading it into memory.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../testing/console-session';
import { ensureNextBuild } from '../../testing/next-build';
import { ServerProcess } from '../../testing/server-process';

const MB = 1024 * 1024;
const TOTAL = 200 * MB;

/** Streams up to `total` bytes of a JSON-looking body (chunked, or with its length declared) and returns the status. */
function streamBody(
  url: string,
  opts: { cookie?: string; declareLength: boolean },
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    };
    if (opts.declareLength) headers['content-length'] = TOTAL;
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers });
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res
        .on('data', (c) => (body += c))
        .on('end', () => {
          resolve({ status: res.statusCode!, sent, body });
          req.destroy();
        });
    });
    // Once answered, the server may close the connection under the rest of the body.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < TOTAL) {
        sent += chunk.length;
        if (sent === chunk.length) req.write('{"pad":"');
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end('"}');
    };
    pump();
  });
}

describe('console routes and huge bodies', () => {
  let server: ServerProcess;
  let cookie: string;
  beforeAll(async () => {
    server = new ServerProcess({ kind: 'next', distDir: await ensureNextBuild() });
    await server.start();
    cookie = await signInToConsole(server.url);
  }, 300_000);
  afterAll(() => server?.stop());

  const routes: Array<[string, boolean]> = [
    ['/api/session', false],
    ['/api/checkout/cs_nothing/pay', false],
    ['/api/payouts', true],
    ['/api/checkout-sessions', true],
  ];

  it.each(routes)(
    'POST %s: 413 in the one error shape, streamed or declared, without reading it',
    async (path, signedIn) => {
      const rssBefore = server.rssMiB();
      for (const declareLength of [true, false]) {
        const res = await streamBody(server.url + path, { cookie: signedIn ? cookie : undefined, declareLength });
        expect(res.status).toBe(413);
        expect(JSON.parse(res.body).error).toMatchObject({ code: 'payload_too_large', type: 'invalid_request_error' });
        // Refused long before the end: the server did not wait for 200 MB.
        expect(res.sent).toBeLessThan(TOTAL);
      }
      expect(server.rssMiB() - rssBefore).toBeLessThan(64);
      // And the process still serves.
      expect((await fetch(server.url + '/healthz')).status).toBe(200);
    },
    120_000,
  );
});
