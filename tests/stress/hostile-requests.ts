import fc from 'fast-check';
import { ACTION_NAMES as actionNames } from '@/lib/contract';
import { DEMO_KEY } from '../../testing/server-process';

/** A request as the fuzzer sends it: header values and body bytes exactly as given. */
export interface HostileRequest {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
  chunked: boolean;
}

/** Characters a header value may carry on the wire (Node refuses others before sending). */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 300,
});
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  loneSurrogate,
  fc.constantFrom(
    '',
    '\u0000',
    '\u202e1234567890',
    '１２３４５６７８９０',
    '12345678901234567890123',
    '🙂'.repeat(30),
    ' 1234567 ',
    'BCA\u0000',
    'bca',
    'sk_test_' + 'x'.repeat(40),
    "'; DROP TABLE payouts; --",
  ),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 9_007_199_254_740_993, 1e308, -0, 10_000, 100_000_000, 100_000_001),
);
const fieldValue = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));

/** Commands close to valid ones, so that validation is probed field by field. */
const command = fc.record(
  {
    action: fc.oneof(fc.constantFrom(...actionNames), nastyString, fieldValue),
    amount: fieldValue,
    bank_code: fc.oneof(fc.constantFrom('BCA', 'BNI', 'MANDIRI'), fieldValue),
    account_number: fc.oneof(fc.stringMatching(/^[0-9]{6,20}$/), fieldValue),
    id: fc.oneof(fc.constantFrom('po_x', 'cs_x', 'po_'), fieldValue),
    limit: fieldValue,
    starting_after: fieldValue,
    description: fieldValue,
    success_url: fc.oneof(fc.webUrl(), fc.constantFrom('javascript:alert(1)', 'http://'), fieldValue),
    expires_in: fieldValue,
    extra: fieldValue,
  },
  { requiredKeys: [] },
);

/** JSON text, including what JSON.stringify never writes: repeated and prototype keys. */
const jsonText = fc.oneof(
  command.map((c) => JSON.stringify(c)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .tuple(command, fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.jsonValue({ maxDepth: 2 }))
    .map(([c, key, v]) => `{"${key}":${JSON.stringify(v)},${JSON.stringify(c).slice(1)}`),
  fc
    .tuple(fc.constantFrom(...actionNames), fc.constantFrom(...actionNames))
    .map(([a, b]) => `{"action":"${a}","amount":20000,"bank_code":"BCA","account_number":"1234567890","action":"${b}"}`),
  fc.constantFrom(
    '{"action":"get_balance","__proto__":{"mutates":true,"action":"withdraw"}}',
    '{"constructor":{"prototype":{"polluted":1}},"action":"withdraw"}',
    '\uFEFF{"action":"get_balance"}',
    '['.repeat(100_000),
    '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
    '{"action":"get_balance"',
    'null',
    '[]',
    '"get_balance"',
    '1e999',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Body bytes: JSON text, invalid UTF-8, or a size around and far beyond the 256 KiB limit. */
const body = fc.oneof(
  { weight: 6, arbitrary: jsonText.map((t) => Buffer.from(t, 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.constantFrom(256 * 1024 - 40, 256 * 1024 + 1, 2 * 1024 * 1024).map(padded) },
);

function padded(size: number): Buffer {
  const head = '{"action":"get_balance","description":"';
  return Buffer.from(head + 'x'.repeat(Math.max(0, size - head.length - 2)) + '"}');
}

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`Bearer ${DEMO_KEY}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `bearer   ${DEMO_KEY}`,
      `Bearer ${DEMO_KEY.slice(0, -1)}Z`,
      'Bearer sk_test_' + '0'.repeat(40),
      'Basic Zm9vOmJhcg==',
      'Bearer',
    ),
  },
  { weight: 1, arbitrary: headerText },
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON ; x=y') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
    ),
  },
  { weight: 1, arbitrary: headerText },
);
const idempotencyKey = fc.oneof(fc.uuid(), headerText, fc.constantFrom('', ' ', 'k'.repeat(256), 'k'.repeat(255)));
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .record({
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE') },
    ),
    query: fc.option(fc.constantFrom('?action=withdraw', '?__proto__[x]=1', '?a=%ff%fe'), { nil: '' }),
    authorization: fc.option(fc.array(authorization, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    contentType: fc.option(fc.array(contentType, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    idempotency: fc.option(fc.array(idempotencyKey, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    extra: fc.array(fc.tuple(headerName, headerText), { maxLength: 4 }),
    // Host headers no URL parser accepts (spaces, brackets, ports out of range) as well as fuzz.
    host: fc.option(fc.oneof(fc.constantFrom('a b', '[::1', 'x:99999', '%', 'h\u00e9llo', '', 'user@host', 'a/b', '[zz]'), headerText), {
      nil: undefined,
    }),
    body,
    chunked: fc.boolean(),
  })
  .map((r) =>
    withSummary({
      method: r.method,
      path: `/v1/index.php${r.query}`,
      headers: [
        ...(r.authorization ?? []).map((v): [string, string] => ['authorization', v]),
        ...(r.contentType ?? []).map((v): [string, string] => ['content-type', v]),
        ...(r.idempotency ?? []).map((v): [string, string] => ['x-service-idempotency', v]),
        ...(r.host !== undefined ? [['host', r.host] as [string, string]] : []),
        ...r.extra.filter(([n]) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade'].includes(n)),
      ],
      body: r.body,
      chunked: r.chunked,
    }),
  );

/** fast-check prints counterexamples with this: the head of the body, not every byte of a megabyte. */
function withSummary(r: HostileRequest): HostileRequest {
  const head = r.body.subarray(0, 200).toString('utf8');
  const summary = `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.chunked ? 'chunked' : 'content-length'} body(${r.body.length} bytes): ${JSON.stringify(head)}`;
  return Object.assign(r, { [fc.toStringMethod]: () => summary });
}

/** Bytes that are barely HTTP, for the raw-socket part: the server must stay up, never answer 5xx. */
export const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
  fc
    .tuple(fc.constantFrom('POST', 'GET', 'P\u0000ST', 'POST '.repeat(50)), headerText, fc.nat({ max: 100_000 }))
    .map(([m, h, n]) =>
      Buffer.from(
        `${m} /v1/index.php HTTP/1.1\r\nHost: x\r\nX: ${h}\r\nContent-Length: ${n}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n0\r\n\r\n`,
        'latin1',
      ),
    ),
  fc.constantFrom(
    Buffer.from(`POST /v1/index.php HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`),
    Buffer.from(
      'POST /v1/index.php HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nffffffffff\r\n{}',
    ),
    Buffer.from('POST /v1/index.php HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'),
    Buffer.from('POST /v1/index.php HTTP/9.9\r\n\r\n'),
  ),
);
