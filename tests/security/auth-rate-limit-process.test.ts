// The failed-authentication limit as deployed: real server processes, addresses as the server sees them,
// counts in the database shared by every instance, console sign-ins by the browser's address.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callApi } from '../helpers/api-server';
import { freshAuthWindow } from '../helpers/auth-window';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { ensureNextBuild } from '../../testing/next-build';
import { DEMO_KEY, ServerProcess, type ServerKind } from '../../testing/server-process';

const LIMIT = 3;
const WRONG = `sk_test_${'w'.repeat(40)}`;
const kinds: ServerKind[] = postgresUrl ? ['standalone', 'next'] : ['standalone'];
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
// Each test counts its failures within one clock minute.
beforeEach(() => freshAuthWindow());

describe.each(kinds)('failed authentications against the %s server behind one trusted proxy', (kind) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({
      kind,
      databaseUrl: kind === 'next' ? await createSchemaUrl() : undefined,
      distDir: kind === 'next' ? await ensureNextBuild() : undefined,
      env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUSTED_PROXY_HOPS: '1' },
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    server?.cleanUp();
  });

  it(`blocks an address after ${LIMIT} failures, valid key or not (the limit decides first), and no other address`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++)
      statuses.push((await callApi(server.url, WRONG, { action: 'get_balance' }, from('10.1.1.1'))).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const limited = await callApi(server.url, WRONG, { action: 'get_balance' }, from('10.1.1.1'));
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      error: { type: 'rate_limit_error', code: 'rate_limited', message: expect.any(String), request_id: expect.stringMatching(/^req_/) },
    });
    // A right key does not get through from the blocked address: guessing cannot go on.
    expect((await callApi(server.url, DEMO_KEY, { action: 'get_balance' }, from('10.1.1.1'))).status).toBe(429);
    // Another address is not affected.
    expect((await callApi(server.url, DEMO_KEY, { action: 'get_balance' }, from('10.1.1.2'))).status).toBe(200);
    expect((await callApi(server.url, WRONG, { action: 'get_balance' }, from('10.1.1.2'))).status).toBe(401);
  });

  it('believes only the entry the trusted proxy appended, not what the client wrote before it', async () => {
    // The client forges a chain; the proxy appends what it saw (10.1.2.1): that is the address counted.
    for (let i = 0; i < LIMIT; i++) await callApi(server.url, WRONG, { action: 'get_balance' }, from(`172.16.0.${i}, 10.1.2.1`));
    expect((await callApi(server.url, WRONG, { action: 'get_balance' }, from('172.16.9.9, 10.1.2.1'))).status).toBe(429);
  });
});

describe('X-Forwarded-For without a trusted proxy', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({ kind: 'standalone', env: { AUTH_FAILURES_PER_MINUTE: '2' } });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    server?.cleanUp();
  });

  it('is ignored: rotating forged addresses does not escape the limit of the socket address', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await callApi(server.url, WRONG, { action: 'get_balance' }, from(`10.9.0.${i}`))).status);
    expect(statuses).toEqual([401, 401, 429, 429, 429]);
  });
});

describe.runIf(postgresUrl)('two instances on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    const databaseUrl = await createSchemaUrl();
    a = new ServerProcess({ kind: 'standalone', databaseUrl, env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
    b = new ServerProcess({ kind: 'standalone', databaseUrl, env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
    await a.start();
    await b.start();
  });
  afterAll(() => Promise.all([a?.stop(), b?.stop()]));

  it(`count failures together: ${LIMIT} in all, not ${LIMIT} per instance`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) statuses.push((await callApi((i % 2 ? b : a).url, WRONG, { action: 'get_balance' })).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(LIMIT).fill(429)]);
  });
});

describe.runIf(postgresUrl)('console sign-in attempts', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({
      kind: 'next',
      databaseUrl: await createSchemaUrl(),
      distDir: await ensureNextBuild(),
      env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUSTED_PROXY_HOPS: '1' },
    });
    await server.start();
  });
  afterAll(() => server?.stop());

  const signIn = (secretKey: string, address: string) =>
    fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ secretKey }),
    }).then((r) => r.status);

  it('are limited per browser address, not in one bucket for every browser', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push(await signIn(WRONG, '10.3.0.1'));
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    expect(await signIn(DEMO_KEY, '10.3.0.1')).toBe(429); // checked before the key is tried
    expect(await signIn(WRONG, '10.3.0.2')).toBe(401); // another browser has its own count
    expect(await signIn(DEMO_KEY, '10.3.0.3')).toBe(200);
  });
});
