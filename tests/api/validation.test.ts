import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

const w = withdrawal();
const BIG = 'x'.repeat(257 * 1024);

/** [what, request, status, code, param]: every malformed input gets its 4xx, naming the field. */
const cases: Array<[string, { body?: unknown; raw?: string; headers?: Record<string, string> }, number, string, string?]> = [
  ['body is not JSON', { raw: '{"action":' }, 400, 'invalid_json'],
  ['body is a JSON array', { raw: '[]' }, 400, 'invalid_request'],
  ['body is a JSON string', { raw: '"withdraw"' }, 400, 'invalid_request'],
  ['body is null', { raw: 'null' }, 400, 'invalid_request'],
  ['body is empty', { raw: '' }, 400, 'invalid_json'],
  ['body is not UTF-8', { raw: undefined, headers: {}, body: Symbol.for('latin1') }, 400, 'invalid_json'],
  ['content type is text/plain', { body: w, headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type', 'content-type'],
  [
    'content type is form data',
    { body: w, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    415,
    'unsupported_media_type',
    'content-type',
  ],
  ['body over 256 KiB', { body: { action: 'get_balance', pad: BIG } }, 413, 'payload_too_large'],
  ['action missing', { body: { amount: 1 } }, 400, 'invalid_request', 'action'],
  ['action not a string', { body: { action: 7 } }, 400, 'invalid_request', 'action'],
  ['action unknown', { body: { action: 'steal' } }, 400, 'unknown_action', 'action'],
  ['action names a prototype property', { body: { action: 'constructor' } }, 400, 'unknown_action', 'action'],
  ['get_balance with an extra field', { body: { action: 'get_balance', amount: 5 } }, 400, 'invalid_request', 'amount'],
  ['unknown field', { body: { ...w, memo: 'hi' } }, 400, 'invalid_request', 'memo'],
  ['__proto__ field', { raw: JSON.stringify(w).replace('{', '{"__proto__":{"admin":true},') }, 400, 'invalid_request', '__proto__'],
  ['amount missing', { body: { ...w, amount: undefined } }, 400, 'invalid_request', 'amount'],
  ['amount as numeric string', { body: { ...w, amount: '50000' } }, 400, 'invalid_request', 'amount'],
  ['amount fractional', { body: { ...w, amount: 50000.5 } }, 400, 'invalid_request', 'amount'],
  ['amount zero', { body: { ...w, amount: 0 } }, 400, 'invalid_request', 'amount'],
  ['amount negative', { body: { ...w, amount: -50000 } }, 400, 'invalid_request', 'amount'],
  ['amount beyond safe integers', { raw: JSON.stringify(w).replace('50000', '9007199254740993') }, 400, 'invalid_request', 'amount'],
  ['amount in exponent form beyond the limit', { raw: JSON.stringify(w).replace('50000', '1e300') }, 400, 'invalid_request', 'amount'],
  ['amount below the payout minimum', { body: { ...w, amount: 9_999 } }, 400, 'invalid_request', 'amount'],
  ['amount above the payout maximum', { body: { ...w, amount: 100_000_001 } }, 400, 'invalid_request', 'amount'],
  ['amount null', { body: { ...w, amount: null } }, 400, 'invalid_request', 'amount'],
  ['bank_code empty', { body: { ...w, bank_code: '' } }, 400, 'invalid_request', 'bank_code'],
  ['bank_code unknown', { body: { ...w, bank_code: 'NOPE' } }, 400, 'invalid_request', 'bank_code'],
  ['bank_code not a string', { body: { ...w, bank_code: 14 } }, 400, 'invalid_request', 'bank_code'],
  ['account_number empty', { body: { ...w, account_number: '' } }, 400, 'invalid_request', 'account_number'],
  ['account_number with letters', { body: { ...w, account_number: '12345abc' } }, 400, 'invalid_request', 'account_number'],
  ['account_number too short', { body: { ...w, account_number: '12345' } }, 400, 'invalid_request', 'account_number'],
  ['account_number a number', { body: { ...w, account_number: 1234567890 } }, 400, 'invalid_request', 'account_number'],
  [
    'idempotency key too long',
    { body: w, headers: { 'x-service-idempotency': 'k'.repeat(256) } },
    400,
    'invalid_idempotency_key',
    'x-service-idempotency',
  ],
  [
    'idempotency key with a space',
    { body: w, headers: { 'x-service-idempotency': 'a b' } },
    400,
    'invalid_idempotency_key',
    'x-service-idempotency',
  ],
  ['get_payout without id', { body: { action: 'get_payout' } }, 400, 'invalid_request', 'id'],
  ['get_payout with a foreign prefix', { body: { action: 'get_payout', id: 'cs_123' } }, 400, 'invalid_request', 'id'],
  ['list_payouts limit 0', { body: { action: 'list_payouts', limit: 0 } }, 400, 'invalid_request', 'limit'],
  ['list_payouts limit 101', { body: { action: 'list_payouts', limit: 101 } }, 400, 'invalid_request', 'limit'],
  ['list_payouts unknown status', { body: { action: 'list_payouts', status: 'lost' } }, 400, 'invalid_request', 'status'],
  ['checkout amount as string', { body: { action: 'create_checkout_session', amount: '1000' } }, 400, 'invalid_request', 'amount'],
  [
    'checkout success_url not http',
    { body: { action: 'create_checkout_session', amount: 5000, success_url: 'javascript:alert(1)' } },
    400,
    'invalid_request',
    'success_url',
  ],
  [
    'checkout expires_in too short',
    { body: { action: 'create_checkout_session', amount: 5000, expires_in: 10 } },
    400,
    'invalid_request',
    'expires_in',
  ],
];

describe.each(apiTargets)('malformed input ($name)', (backend) => {
  const api = useTestApi(backend);

  it.each(cases)('%s: %i %s', async (_, req, status, code, param) => {
    const headers = { 'x-service-idempotency': `v-${Math.random()}`, ...req.headers };
    let res;
    if (req.body === Symbol.for('latin1')) {
      res = await fetch(`${api().url}/v1/index.php`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api().merchant.secretKey}`, 'content-type': 'application/json' },
        body: Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]),
      });
      res = { status: res.status, body: await res.json() };
    } else {
      res = await api().call(req.body, { raw: req.raw, headers });
    }
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toEqual(expect.any(String));
    if (param) expect(res.body.error.param).toBe(param);
  });

  it('builds the link on the listening address for a Host header that is no host (never from a foreign Host)', async () => {
    // fetch sets Host itself: node:http sends it as given.
    const { url, merchant } = api();
    const body = JSON.stringify({ action: 'create_checkout_session', amount: 5000 });
    const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        url + '/v1/index.php',
        {
          method: 'POST',
          headers: {
            host: 'a b',
            authorization: `Bearer ${merchant.secretKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (r) => {
          let text = '';
          r.on('data', (c) => (text += c)).on('end', () => resolve({ status: r.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).url).toMatch(new RegExp(`^${new URL(url).origin.replace(/\./g, '\\.')}/checkout/cs_`));
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${api().url}/v1/index.php`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.json()).error.code).toBe('method_not_allowed');
    }
  });

  it('wrote nothing for any of them: balance, ledger and payouts untouched, keys still free', async () => {
    const check = await ledgerCheck(api().db, api().merchant.id);
    expect(check).toEqual({ available: 10_000_000, ledger: 10_000_000, pending: 0, pendingSum: 0, payouts: 0 });
    const keys = await api().db.query('SELECT key FROM idempotency_keys');
    expect(keys).toEqual([]);
  });
});
