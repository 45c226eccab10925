// The console's settings routes (/api/account-settings) over real HTTP against `next start` on each database: reads,
// idempotent writes under the form's key, the field named in a 400, the secret key only, the same-origin check,
// and the pages that follow the zone from the next request on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH } from '@/lib/contract';
import { dayInZone } from '@/lib/contract/time-zone';
import { zoneLabel } from '@/lib/format';
import { signInToConsole } from '../../testing/console-session';
import { backends, createSchemaUrl } from '../../testing/databases';
import { ensureNextBuild } from '../../testing/next-build';
import { DEMO_KEY, ServerProcess } from '../../testing/server-process';

describe.each(backends)('console settings routes ($name)', (backend) => {
  let server: ServerProcess;
  let cookie: string;
  beforeAll(async () => {
    const databaseUrl = backend.name === 'postgres' ? await createSchemaUrl() : undefined;
    server = await new ServerProcess({ kind: 'next', databaseUrl, distDir: await ensureNextBuild() }).start();
    cookie = await signInToConsole(server.url);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  const route = (init: { method?: string; body?: unknown; cookie?: string; origin?: string } = {}) =>
    fetch(`${server.url}/api/account-settings`, {
      method: init.method ?? 'GET',
      headers: {
        cookie: init.cookie ?? cookie,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.origin ? { origin: init.origin } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const save = (body: Record<string, unknown>, opts: { cookie?: string; origin?: string } = {}) => route({ method: 'POST', body, ...opts });
  const api = async (key: string, body: Record<string, unknown>) =>
    (
      await fetch(`${server.url}${API_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-service-idempotency': crypto.randomUUID() },
        body: JSON.stringify(body),
      })
    ).json();

  it('reads the settings, and saves them once under the form key (a resend is a replay)', async () => {
    const read = await route();
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ object: 'account_settings', time_zone: 'Asia/Jakarta', low_balance_threshold: null });

    const key = crypto.randomUUID();
    const first = await save({ time_zone: 'Europe/Berlin', low_balance_threshold: 125_000, idempotency_key: key });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      object: 'account_settings',
      time_zone: 'Europe/Berlin',
      low_balance_threshold: 125_000,
      replayed: false,
    });
    const again = await save({ time_zone: 'Europe/Berlin', low_balance_threshold: 125_000, idempotency_key: key });
    expect(await again.json()).toMatchObject({ time_zone: 'Europe/Berlin', replayed: true });
    // The same key for another change is refused, not applied.
    const reused = await save({ time_zone: 'Asia/Jakarta', idempotency_key: key });
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe('idempotency_key_reused');
    expect(await api(DEMO_KEY, { action: 'get_account_settings' })).toMatchObject({
      time_zone: 'Europe/Berlin',
      low_balance_threshold: 125_000,
    });

    // Empty threshold: none.
    const cleared = await save({ low_balance_threshold: null, idempotency_key: crypto.randomUUID() });
    expect(await cleared.json()).toMatchObject({ time_zone: 'Europe/Berlin', low_balance_threshold: null });
  });

  it('shows every page in the saved zone from the next request on, and names it', async () => {
    await save({ time_zone: 'Asia/Kathmandu', idempotency_key: crypto.randomUUID() });
    const page = await (await fetch(`${server.url}/payouts`, { headers: { cookie } })).text();
    expect(page).toContain('data-zone="Asia/Kathmandu"');
    expect(page).toContain(`${zoneLabel('Asia/Kathmandu')} (Asia/Kathmandu)`);
    // The export's file is named by the zone's date: 14 hours ahead of UTC, its date is rarely UTC's.
    await save({ time_zone: 'Pacific/Kiritimati', idempotency_key: crypto.randomUUID() });
    const exported = await fetch(`${server.url}/api/payouts/export`, { headers: { cookie } });
    await exported.arrayBuffer();
    expect(exported.headers.get('content-disposition')).toBe(
      `attachment; filename="payouts-${dayInZone(Date.now(), 'Pacific/Kiritimati')}.csv"`,
    );
    await save({ time_zone: 'Asia/Jakarta', idempotency_key: crypto.randomUUID() });
    const back = await (await fetch(`${server.url}/payouts`, { headers: { cookie } })).text();
    expect(back).toContain('data-zone="Asia/Jakarta"');
    expect(back).toContain('WIB (Asia/Jakarta)');
  });

  it.each([
    [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
    [{ time_zone: 7 }, 'time_zone'],
    [{ low_balance_threshold: -1 }, 'low_balance_threshold'],
    [{ low_balance_threshold: 10.5 }, 'low_balance_threshold'],
    [{ low_balance_threshold: '1000' }, 'low_balance_threshold'],
    [{ colour: 'blue' }, 'colour'],
  ])('refuses %o with a 400 naming %s, and changes nothing', async (body, param) => {
    const before = await api(DEMO_KEY, { action: 'get_account_settings' });
    const res = await save({ ...body, idempotency_key: crypto.randomUUID() });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'invalid_request', param });
    expect(await api(DEMO_KEY, { action: 'get_account_settings' })).toEqual(before);
  });

  it('needs an idempotency key, the secret key, the same origin and a session', async () => {
    const keyless = await save({ time_zone: 'UTC' });
    expect(keyless.status).toBe(400);
    expect((await keyless.json()).error.param).toBe('idempotency_key');

    const crossSite = await save({ time_zone: 'UTC', idempotency_key: crypto.randomUUID() }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe('cross_origin_request');

    expect((await route({ cookie: '' })).status).toBe(401);

    const restricted = await api(DEMO_KEY, { action: 'create_restricted_key', name: 'Zone reader', permissions: ['balance:read'] });
    const restrictedCookie = await signInToConsole(server.url, restricted.secret);
    expect((await route({ cookie: restrictedCookie })).status).toBe(200);
    const refused = await save({ time_zone: 'UTC', idempotency_key: crypto.randomUUID() }, { cookie: restrictedCookie });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('permission_denied');
    expect((await api(DEMO_KEY, { action: 'get_account_settings' })).time_zone).not.toBe('UTC');
  });

  it("shows a restricted key's pages in the merchant's zone, even a key that may not read the settings", async () => {
    await save({ time_zone: 'Asia/Makassar', idempotency_key: crypto.randomUUID() });
    const payoutsOnly = await api(DEMO_KEY, { action: 'create_restricted_key', name: 'Payouts clerk', permissions: ['payouts:read'] });
    const clerk = await signInToConsole(server.url, payoutsOnly.secret);
    expect((await route({ cookie: clerk })).status).toBe(403);
    const page = await (await fetch(`${server.url}/payouts`, { headers: { cookie: clerk } })).text();
    expect(page).toContain('data-zone="Asia/Makassar"');
    expect(page).toContain('WITA (Asia/Makassar)');
    await save({ time_zone: 'Asia/Jakarta', idempotency_key: crypto.randomUUID() });
  });
});
