// The merchant's account settings (docs/api.md, "Account settings"), on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { callApi, useTestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

describe.each(backends)('account settings ($name)', (backend) => {
  const api = useTestApi(backend);
  const call = (body: Record<string, unknown>) =>
    callApi(api().url, api().merchant.secretKey, body, { idempotencyKey: crypto.randomUUID() });

  it('starts on Asia/Jakarta with no threshold, and changes only the fields given', async () => {
    expect((await call({ action: 'get_account_settings' })).body).toEqual({
      object: 'account_settings',
      time_zone: 'Asia/Jakarta',
      low_balance_threshold: null,
    });
    const zone = await call({ action: 'update_account_settings', time_zone: 'Europe/Berlin' });
    expect(zone.body).toEqual({ object: 'account_settings', time_zone: 'Europe/Berlin', low_balance_threshold: null });
    const threshold = await call({ action: 'update_account_settings', low_balance_threshold: 5_000 });
    expect(threshold.body).toMatchObject({ time_zone: 'Europe/Berlin', low_balance_threshold: 5_000 });
    const cleared = await call({ action: 'update_account_settings', low_balance_threshold: null });
    expect(cleared.body).toMatchObject({ time_zone: 'Europe/Berlin', low_balance_threshold: null });
    expect((await call({ action: 'get_account_settings' })).body.time_zone).toBe('Europe/Berlin');
    // Any key learns the zone with what it is (a console shows every key's times in it).
    expect((await call({ action: 'get_current_key' })).body.merchant.time_zone).toBe('Europe/Berlin');
  });

  it.each([
    [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
    [{ time_zone: '' }, 'time_zone'],
    [{ time_zone: 7 }, 'time_zone'],
    [{ low_balance_threshold: -1 }, 'low_balance_threshold'],
    [{ low_balance_threshold: 1.5 }, 'low_balance_threshold'],
    [{ low_balance_threshold: '100' }, 'low_balance_threshold'],
  ])('refuses %j with a 400 naming %s, and changes nothing', async (fields, param) => {
    const before = (await call({ action: 'get_account_settings' })).body;
    const res = await call({ action: 'update_account_settings', ...fields });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 'invalid_request', param]);
    expect((await call({ action: 'get_account_settings' })).body).toEqual(before);
  });
});
