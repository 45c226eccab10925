// No secret reaches a log line: the logger's redaction, and the captured output of full runs of real servers.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { callApi, startTestApi, withdrawal } from '../helpers/api-server';
import { backends, createSchemaUrl, postgresUrl } from '../../testing/databases';
import { signInToConsole } from '../../testing/console-session';
import { countAnnouncements, findLeaks } from '../helpers/log-scan';
import { ensureNextBuild } from '../../testing/next-build';
import { DEMO_KEY, ServerProcess, type ServerKind } from '../../testing/server-process';

const ACCOUNT = '9988776655443322';
const UNKNOWN_KEY = `sk_test_${'u'.repeat(40)}`;
const COOKIE = 'merchant_session=Fe26.2**0123456789abcdef*sealedvalue*~2';

describe('the logger', () => {
  it('redacts secrets wherever callers put them', () => {
    let out = '';
    const log = createLogger({ level: 'trace', destination: new Writable({ write: (c, _e, cb) => ((out += c), cb()) }) });
    log.info({ secretKey: DEMO_KEY, account_number: ACCOUNT, authorization: `Bearer ${DEMO_KEY}` }, 'top level');
    log.info({ req: { headers: { authorization: `Bearer ${DEMO_KEY}`, cookie: COOKIE } } }, 'request headers');
    log.info({ headers: { cookie: COOKIE, 'set-cookie': COOKIE }, input: { account_number: ACCOUNT, key: DEMO_KEY } }, 'nested');
    log.flush?.();
    expect(out.split('\n').filter(Boolean)).toHaveLength(3);
    expect(
      findLeaks(out, [
        ['account', ACCOUNT],
        ['cookie', COOKIE],
      ]),
    ).toEqual([]);
    expect(out).toContain('[redacted]');
  });
});

describe.each(backends)('an unexpected database error during a withdraw ($name)', (backend) => {
  it('is logged without the query, its parameters or the row values (no account number)', async () => {
    let out = '';
    const log = createLogger({ level: 'info', destination: new Writable({ write: (c, _e, cb) => ((out += c), cb()) }) });
    const api = await startTestApi(await backend.open(), { log });
    try {
      // A constraint the code does not expect: the second payout to the account fails in the database,
      // whose error carries the INSERT's parameters (PGlite) and the row's values (PostgreSQL's detail).
      await api.db.exec('CREATE UNIQUE INDEX forced_error ON payouts (account_number)');
      expect((await api.call(withdrawal(20_000, { account_number: ACCOUNT }))).status).toBe(200);
      const failed = await api.call(withdrawal(20_000, { account_number: ACCOUNT }));
      expect(failed.status).toBe(500);
      log.flush?.();
      expect(out).toContain('unhandled error in payment API');
      // The log line names the request as the answer does (header and body), for a support ticket.
      const requestId = failed.headers.get('request-id')!;
      expect(requestId).toMatch(/^req_/);
      expect(failed.body.error.request_id).toBe(requestId);
      expect(out.split('\n').find((l) => l.includes('unhandled error'))).toContain(`"requestId":"${requestId}"`);
      expect(out).toContain('forced_error');
      expect(
        findLeaks(out, [
          ['full account number', ACCOUNT],
          ['secret key', api.merchant.secretKey],
        ]),
      ).toEqual([]);
    } finally {
      await api.close();
      await api.db.close();
    }
  });
});

const kinds: ServerKind[] = postgresUrl ? ['standalone', 'next'] : ['standalone'];

describe.each(kinds)('the captured output of a full run of the %s server', (kind) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess({
      kind,
      databaseUrl: postgresUrl ? await createSchemaUrl() : undefined,
      distDir: kind === 'next' ? await ensureNextBuild() : undefined,
      // The most talkative level, and settlement soon, so that the background jobs log too.
      // Behind one trusted proxy, so that the unknown keys below come from an address of their own.
      env: { LOG_LEVEL: 'trace', SETTLEMENT_DELAY_SECONDS: '0', AUTH_FAILURES_PER_MINUTE: '3', TRUSTED_PROXY_HOPS: '1' },
    });
    await server.start();
  });
  afterAll(() => server?.stop());

  it('says once it listens, after the log lines so far and in words, where it is and the demo key', async () => {
    // The server answers as soon as it listens; its words follow on stdout, which may reach this process a moment later.
    await expect.poll(() => server.output.includes('\n  Ready.\n'), { timeout: 10_000, interval: 20 }).toBe(true);
    const out = server.output;
    const ready = out.indexOf('\n  Ready.\n');
    expect(ready).toBeGreaterThan(out.indexOf('"msg":"listening"'));
    const block = out.slice(ready).split('\n').slice(2, 10);
    const origin = server.url.replace('localhost', '127.0.0.1');
    if (kind === 'next') expect(block.shift()).toBe(`  Console:      ${origin}/`);
    expect(block[0]).toBe(`  Payment API:  POST ${origin}/v1/index.php`);
    expect(block[2]).toMatch(/^ {2}Demo merchant "Demo Store" created with/);
    expect(block[5]).toBe(`    ${DEMO_KEY}`);
  });

  it('holds no secret key, Authorization value, session cookie or full account number', async () => {
    const call = (body: unknown, opts = {}) => callApi(server.url, DEMO_KEY, body, { headers: { cookie: COOKIE }, ...opts });
    expect((await call({ action: 'get_balance' })).status).toBe(200);
    expect((await call(withdrawal(20_000, { account_number: ACCOUNT }), { idempotencyKey: 'redact-1' })).status).toBe(200);
    expect((await call(withdrawal(20_000, { account_number: '4000000001' }))).status).toBe(200);
    expect((await call(withdrawal(20_000, { account_number: `${ACCOUNT}x` }))).status).toBe(400);
    expect((await call({ action: 'create_checkout_session', amount: 50_000 })).status).toBe(200);
    for (let i = 0; i < 5; i++)
      await call({ action: 'get_balance' }, { key: UNKNOWN_KEY, headers: { cookie: COOKIE, 'x-forwarded-for': '10.66.0.1' } });
    await call(undefined, { raw: `{"action":"withdraw","account_number":"${ACCOUNT}",` });
    // The console (Next only): a real session cookie, a payout through the proxy, a sign-out.
    let sessionCookie = '';
    if (kind === 'next') {
      sessionCookie = await signInToConsole(server.url);
      const consoleCall = (path: string, init: RequestInit = {}) =>
        fetch(server.url + path, { ...init, headers: { cookie: sessionCookie, 'content-type': 'application/json', ...init.headers } });
      expect((await consoleCall('/api/balance')).status).toBe(200);
      const payout = { amount: 20_000, bank_code: 'BCA', account_number: ACCOUNT, idempotency_key: 'redact-console-1' };
      expect((await consoleCall('/api/payouts', { method: 'POST', body: JSON.stringify(payout) })).status).toBe(200);
      expect((await consoleCall('/api/session', { method: 'DELETE' })).status).toBe(204);
      expect((await consoleCall('/api/balance')).status).toBe(401);
    }
    await new Promise((r) => setTimeout(r, 2500)); // settlement runs and logs
    await server.stop();

    const logLines = server.output.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThanOrEqual(10);
    expect(server.output).toContain('payouts settled');
    // The demo key is printed once, on the first start, outside the log: nowhere else.
    expect(countAnnouncements(server.output)).toBe(1);
    const leaks = findLeaks(server.output, [
      ['demo secret key', DEMO_KEY],
      ['unknown key tried', UNKNOWN_KEY],
      ['full account number', ACCOUNT],
      ['session cookie', COOKIE],
      ...(sessionCookie ? ([['real console session cookie', sessionCookie.split('=').slice(1).join('=')]] as Array<[string, string]>) : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
