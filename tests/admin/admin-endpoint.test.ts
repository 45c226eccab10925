// The CLI's admin endpoint answers its refusals in the one error shape, from the contract's table:
// a command that fails for an unexpected reason is a 500 typed api_error, never an invalid_request_error.
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { adminHandler } from '@/lib/admin/admin-endpoint';
import { ERROR_CODES, errorBodySchema } from '@/lib/contract';
import type { Db } from '@/lib/db/types';

const TOKEN = 'admin-token-for-this-test';
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(db: Db) {
  server = http.createServer(adminHandler(db, TOKEN, os.tmpdir()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (body: unknown, token = TOKEN) =>
    fetch(`http://127.0.0.1:${port}/_admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
}

/** A database that fails every query: the fault this test injects. */
const failingDb = {
  kind: 'pglite',
  query: async () => {
    throw new Error('connection lost');
  },
} as unknown as Db;

describe('admin endpoint error bodies', () => {
  it('an unexpected failure is 500 internal_error typed api_error', async () => {
    const send = await start(failingDb);
    const res = await send({ command: 'list' });
    expect(res.status).toBe(500);
    const body = errorBodySchema.parse(await res.json());
    expect(body.error).toEqual({ type: ERROR_CODES.internal_error.type, code: 'internal_error', message: 'The command failed.' });
    expect(body.error.type).toBe('api_error');
  });

  it('a usage error is 400 invalid_request; a wrong token is 404 not_found; both from the table', async () => {
    const send = await start(failingDb);
    const usage = await send({ command: 'roll-key', id: 'nope' });
    expect(usage.status).toBe(400);
    expect((await usage.json()).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_request',
      message: '--id acct_... is required',
    });
    const hidden = await send({ command: 'list' }, 'wrong');
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error).toEqual({ type: 'invalid_request_error', code: 'not_found', message: 'Not found.' });
  });
});
