// Console routes, as served by npm start: a request-id on every answer, and on the route's log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNextBuild } from '../../testing/next-build';
import { ServerProcess } from '../../testing/server-process';

describe('console request ids (npm start, embedded database)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await new ServerProcess({ kind: 'next', distDir: await ensureNextBuild(), env: { LOG_LEVEL: 'debug' } }).start();
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    server?.cleanUp();
  });

  it('answers a console route with a request-id of its own (not the one the client sent) that its log line carries', async () => {
    const res = await fetch(`${server.url}/api/balance`, { headers: { 'request-id': 'req_chosenByTheClient0000' } });
    expect(res.status).toBe(401); // no session
    const id = res.headers.get('request-id');
    expect(id).toMatch(/^req_[0-9A-Za-z]{12}[0-9a-z]{8}$/);
    for (const deadline = Date.now() + 5_000; !server.output.includes(id!) && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 50));
    const line = server.output.split('\n').find((l) => l.includes(id!));
    expect(JSON.parse(line!)).toMatchObject({ requestId: id, path: '/api/balance', status: 401, msg: 'console request' });
  });
});
