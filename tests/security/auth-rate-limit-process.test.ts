// The failed-authentication limit as deployed: real server processes read AUTH_FAILURES_PER_MINUTE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../helpers/databases';
import { ensureNextBuild } from '../helpers/next-build';
import { DEMO_KEY, ServerProcess, type ServerKind } from '../helpers/server-process';

const LIMIT = 3;
const WRONG = `sk_test_${'w'.repeat(40)}`;
const kinds: ServerKind[] = postgresUrl ? ['standalone', 'next'] : ['standalone'];

async function timedBalance(url: string) {
  const t = performance.now();
  const res = await callApi(url, DEMO_KEY, { action: 'get_balance' });
  return { status: res.status, ms: performance.now() - t };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe.each(kinds)('failed authentications against the %s server', (kind) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({
      kind,
      databaseUrl: kind === 'next' ? await createSchemaUrl() : undefined,
      distDir: kind === 'next' ? await ensureNextBuild() : undefined,
      env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) },
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    server?.cleanUp();
  });

  it(`answers 429 with Retry-After after ${LIMIT} failures, while a valid key from the same address is not slowed`, async () => {
    const before: number[] = [];
    for (let i = 0; i < 10; i++) before.push((await timedBalance(server.url)).ms);

    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await callApi(server.url, WRONG, { action: 'get_balance' })).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const limited = await callApi(server.url, WRONG, { action: 'get_balance' });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ error: { type: 'rate_limit_error', code: 'rate_limited', message: expect.any(String), request_id: expect.stringMatching(/^req_/) } });

    const during = [];
    for (let i = 0; i < 10; i++) during.push(await timedBalance(server.url));
    expect(during.map((d) => d.status)).toEqual(Array(10).fill(200));
    // Not slowed: no added delay, the same order of latency as before the block.
    expect(median(during.map((d) => d.ms))).toBeLessThan(median(before) * 3 + 25);
  });
});

describe.runIf(postgresUrl)('forged X-Forwarded-For behind Next', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({ kind: 'next', databaseUrl: await createSchemaUrl(), distDir: await ensureNextBuild(), env: { AUTH_FAILURES_PER_MINUTE: '2' } });
    await server.start();
  });
  afterAll(() => server?.stop());

  it('cannot try keys without end by rotating addresses: the global ceiling answers 429, valid keys still pass', async () => {
    let firstLimited = 0;
    for (let i = 1; i <= 150 && !firstLimited; i++) {
      const res = await callApi(server.url, WRONG, { action: 'get_balance' }, { headers: { 'x-forwarded-for': `10.9.${i >> 8}.${i & 255}` } });
      if (res.status === 429) firstLimited = i;
    }
    expect(firstLimited).toBeGreaterThan(2);
    expect(firstLimited).toBeLessThanOrEqual(101);
    expect((await timedBalance(server.url)).status).toBe(200);
  });
});
