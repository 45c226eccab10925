// Hostile input from fast-check against running servers: no 5xx, one JSON error shape, server up, memory bounded.
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@/lib/contract';
import { postgresUrl } from '../../testing/databases';
import type { ServerKind } from '../../testing/server-process';
import { Deployment, ledgerCheck, type StressBackend } from './deployment';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures, STRESS } from './figures';
import { hostileRequest, rawBytes, type HostileRequest } from './hostile-requests';

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(port: number, r: HostileRequest): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of r.headers) headers[name] = name in headers ? [headers[name]!].flat().concat(value) : value;
    // Explicit framing either way: Node would send a GET's body unframed, which is the client's bug, not the server's.
    if (r.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(r.body.length);
    const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, type: String(res.headers['content-type']), text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** What every error must look like: { error: { type, code, message, param? } }, code and status agreeing. */
function expectOneErrorShape(res: { status: number; type: string; text: string }) {
  expect(res.type).toMatch(/^application\/json/);
  const body = JSON.parse(res.text);
  expect(Object.keys(body)).toEqual(['error']);
  const { type, code, message, param, request_id, ...rest } = body.error;
  expect(rest).toEqual({});
  // The API's answers name the request; a request that never reached the core (a mount's own 404) need not.
  if (request_id !== undefined) expect(request_id).toMatch(/^req_[0-9A-Za-z]{20,}$/);
  expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toMatchObject({ status: res.status, type });
  expect(typeof message).toBe('string');
  if (param !== undefined) expect(typeof param).toBe('string');
}

/** Raw bytes on a socket; the first status line, if any. Malformed HTTP is answered by Node's parser. */
function sendRaw(port: number, bytes: Buffer): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    const done = () => resolve(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ? Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)![1]) : undefined);
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('data', (d) => (head += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', done);
    socket.end(bytes);
  });
}

const targets: Array<[ServerKind, StressBackend]> = [
  ['standalone', 'pglite'],
  ['next', postgresUrl ? 'postgres' : 'pglite'],
];

describe.each(targets)('hostile input against the %s server on %s', (kind, backend) => {
  let d: Deployment;
  beforeAll(async () => {
    // A high failure limit, so that bad keys do not turn every later input into a 429.
    d = await Deployment.create(backend, [kind], { AUTH_FAILURES_PER_MINUTE: '1000000' });
  });
  afterAll(() => d?.close());

  it('answers every input below 500 in the one error shape, stays up, memory bounded', async () => {
    const server = d.servers[0]!;
    const { merchantId } = await d.balance();
    const statuses = new Map<number, number>();
    let tried = 0;
    const property = fc.asyncProperty(hostileRequest, async (r) => {
      tried++;
      const res = await send(server.port, r);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expectOneErrorShape(res);
      else expect(typeof JSON.parse(res.text)).toBe('object');
    });
    // Warm up first, so that the memory bound measures growth, not start-up.
    await fc.assert(property, { numRuns: 50 });
    const rssWarm = server.rssMiB();
    await fc.assert(property, { numRuns: STRESS.fuzzRuns });
    const rssAfter = server.rssMiB();

    let rawAnswered = 0;
    await fc.assert(
      fc.asyncProperty(rawBytes, async (bytes) => {
        tried++;
        const status = await sendRaw(server.port, bytes);
        if (status !== undefined) rawAnswered++;
        expect(status ?? 0).toBeLessThan(500);
      }),
      { numRuns: STRESS.fuzzRawRuns },
    );

    // Still up and still right: a plain request works, the server process never restarted.
    expect((await d.balance()).merchantId).toBe(merchantId);
    expect(server.running && server.starts === 1).toBe(true);
    expect(rssAfter - rssWarm).toBeLessThan(150);
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check);
    recordFigures(`hostile input, ${kind} on ${backend}`, {
      'inputs tried': tried,
      'raw inputs answered by the HTTP parser': rawAnswered,
      statuses: [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}x${n}`)
        .join(' '),
      '5xx': [...statuses].filter(([s]) => s >= 500).length,
      'rss warm MiB': Math.round(rssWarm),
      'rss after MiB': Math.round(rssAfter),
      'payouts made by valid fuzz commands': check.payouts,
    });
  });
});
