import { describe, expect, it } from 'vitest';
import { rollSecretKey } from '@/lib/payments/keys/api-keys';
import { revokeKeys } from '@/lib/payments/merchants/merchants';
import { useTestApi, withTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { freshAuthWindow } from '../helpers/auth-window';
import { backends } from '../../testing/databases';

describe.each(apiTargets)('authentication ($name)', (backend) => {
  const api = useTestApi(backend);

  it('answers 200 to a valid key, whatever the case of the scheme name', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await api().call(
        { action: 'get_balance' },
        { key: null, headers: { authorization: `${scheme} ${api().merchant.secretKey}` } },
      );
      expect(res.status).toBe(200);
    }
  });

  it('answers with its exact length, not chunked: one write, and no compression set-up for a small body', async () => {
    const res = await api().call({ action: 'get_balance' });
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    expect(res.headers.get('transfer-encoding')).toBeNull();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['no token', 'Bearer '],
    ['malformed token', 'Bearer not-a-key'],
    ['unknown key', `Bearer sk_test_${'x'.repeat(40)}`],
    ['two tokens', 'Bearer sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa sk_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'],
  ])('answers 401 with WWW-Authenticate and the one error shape: %s', async (_, header) => {
    const res = await api().call({ action: 'get_balance' }, { key: null, headers: header === undefined ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toEqual({
      error: {
        type: 'authentication_error',
        code: 'unauthorized',
        message: expect.any(String),
        request_id: expect.stringMatching(/^req_/),
      },
    });
  });

  it('authenticates before reading the body: a 401 for an invalid body too', async () => {
    const res = await api().call(undefined, { key: null, raw: '{not json' });
    expect(res.status).toBe(401);
  });

  it('never touches the idempotency store on a 401: the key stays usable', async () => {
    const denied = await api().call(withdrawal(), { key: `sk_test_${'y'.repeat(40)}`, idempotencyKey: 'auth-first-1' });
    expect(denied.status).toBe(401);
    const first = await api().call(withdrawal(), { idempotencyKey: 'auth-first-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-service-idempotent-replayed')).toBeNull();
  });

  it('stops accepting a revoked key, and accepts the rolled one', async () => {
    const db = api().db;
    const oldKey = api().merchant.secretKey;
    const newKey = (await rollSecretKey(db, api().merchant.id, 0)).secret;
    expect((await api().call({ action: 'get_balance' }, { key: oldKey })).status).toBe(401);
    expect((await api().call({ action: 'get_balance' }, { key: newKey })).status).toBe(200);
    await revokeKeys(db, api().merchant.id);
    expect((await api().call({ action: 'get_balance' }, { key: newKey })).status).toBe(401);
  });

  it('stores keys only as hashes', async () => {
    const rows = await api().db.query<{ key_hash: string; hint: string }>('SELECT key_hash, hint FROM api_keys');
    for (const row of rows) {
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.hint).toMatch(/^sk_test_…[0-9A-Za-z]{4}$/);
    }
    const dump = JSON.stringify(await api().db.query('SELECT * FROM api_keys'));
    expect(dump).not.toContain(api().merchant.secretKey);
  });
});

describe('failed-authentication rate limit', () => {
  it('answers 429 with Retry-After past the limit per address, to a valid key as well (the limit decides first)', async () => {
    const backend = backends[0]!;
    await withTestApi(backend, { settings: { authFailuresPerMinute: 5 } }, async (api) => {
      const bad = `sk_test_${'z'.repeat(40)}`;
      const statuses: number[] = [];
      await freshAuthWindow();
      for (let i = 0; i < 8; i++) statuses.push((await api.call({ action: 'get_balance' }, { key: bad })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      const limited = await api.call({ action: 'get_balance' }, { key: bad });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.error.code).toBe('rate_limited');
      expect((await api.call({ action: 'get_balance' })).status).toBe(429);
      // The count is in the database: once its minute has passed, the address may try again.
      await api.db.query(`UPDATE auth_failures SET window_start = window_start - interval '1 minute'`);
      expect((await api.call({ action: 'get_balance' })).status).toBe(200);
    });
  });
});
