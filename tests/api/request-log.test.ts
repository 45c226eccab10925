// The request log and the idempotency look-up: one row per authenticated call, none for the others.
import { describe, expect, it } from 'vitest';
import { createRequestLog, purgeRequestLog, type RequestLogEntry } from '@/lib/payments/pipeline/request-log';
import { createLogger } from '@/lib/log';
import { deleteInBatches } from '@/lib/db/delete-in-batches';
import { useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';

describe.each(backends)('request log ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 100_000_000, settings: { settlementDelaySeconds: 3600 } });

  it('logs every authenticated call once, with its key, idempotency key, replay and object, and nothing else', async () => {
    const key = (await api().call({ action: 'create_restricted_key', name: 'Support', permissions: ['payouts:write', 'requests:read'] }))
      .body;
    const payout = await api().call(withdrawal(20_000), { key: key.secret, idempotencyKey: 'log-1' });
    const replay = await api().call(withdrawal(20_000), { key: key.secret, idempotencyKey: 'log-1' });
    const denied = await api().call({ action: 'get_balance' }, { key: key.secret });
    expect([payout.status, replay.status, denied.status]).toEqual([200, 200, 403]);
    await api().call({ action: 'get_balance' }, { key: 'sk_test_nobodynobodynobodynobodynobodynobody' }); // 401: never reached the core
    await api().flushRequestLog!();

    const mine = await api().call({ action: 'list_requests', key_id: key.id }, { key: key.secret });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((r: { action: string; status: number; replayed: boolean }) => [r.action, r.status, r.replayed])).toEqual([
      ['get_balance', 403, false],
      ['withdraw', 200, true],
      ['withdraw', 200, false],
    ]);
    const [, again, first] = mine.body.data;
    expect(first).toMatchObject({
      object: 'request',
      idempotency_key: 'log-1',
      object_id: payout.body.id,
      key_id: key.id,
      key_name: 'Support',
      error_code: null,
    });
    expect(first.id).toBe(payout.headers.get('request-id'));
    expect(again.object_id).toBe(payout.body.id);
    expect(mine.body.data[0].error_code).toBe('permission_denied');

    const filtered = await api().call({ action: 'list_requests', request_action: 'withdraw', idempotency_key: 'log-1', status: 200 });
    expect(filtered.body.data).toHaveLength(2);
    // The secret key's own calls carry no name; a revoked key keeps its name in the log.
    expect((await api().call({ action: 'list_requests', request_action: 'create_restricted_key' })).body.data[0]).toMatchObject({
      key_name: null,
    });
    await api().call({ action: 'revoke_api_key', id: key.id });
    expect((await api().call({ action: 'list_requests', key_id: key.id, limit: 1 })).body.data[0].key_name).toBe('Support');
    // Its three calls above and its own list_requests: flushed first, as the periodic flush may or may not have run yet.
    await api().flushRequestLog!();
    const rows = await api().db.query<{ n: number }>(`SELECT count(*)::int AS n FROM request_log WHERE key_id = $1`, [key.id]);
    expect(rows[0]!.n).toBe(4);
    const text = JSON.stringify(mine.body);
    expect(text).not.toContain('1234567890');
    expect(text).not.toContain(key.secret);
    // A refusal stored under an idempotency key (and its replay) is logged with its code too.
    const over = withdrawal(100_000_000); // the most one payout may be, above what is left
    await api().call(over, { idempotencyKey: 'log-over' });
    await api().call(over, { idempotencyKey: 'log-over' });
    await api().flushRequestLog!();
    const refused = (await api().call({ action: 'list_requests', idempotency_key: 'log-over' })).body.data;
    expect(refused.map((r: { status: number; error_code: string; replayed: boolean }) => [r.status, r.error_code, r.replayed])).toEqual([
      [422, 'insufficient_funds', true],
      [422, 'insufficient_funds', false],
    ]);
  });

  it('files a successful read the console marks under origin console, and nothing else: writes and refusals stay api', async () => {
    const console_ = { headers: { 'x-service-origin': 'console' } };
    const read = await api().call({ action: 'get_balance' }, console_);
    const payout = await api().call(withdrawal(10_000), { ...console_, idempotencyKey: 'origin-write' });
    const badRead = await api().call({ action: 'get_payout', id: 'po_nosuchpayout' }, console_);
    const restricted = (await api().call({ action: 'create_restricted_key', name: 'Reader', permissions: ['payouts:read'] })).body;
    const denied = await api().call({ action: 'get_balance' }, { ...console_, key: restricted.secret });
    const plain = await api().call({ action: 'get_payout', id: payout.body.id });
    const seenByConsole = await api().call({ action: 'get_payout', id: payout.body.id }, console_);
    const other = await api().call({ action: 'get_balance' }, { headers: { 'x-service-origin': 'something-else' } });
    expect([read, payout, badRead, denied, plain, seenByConsole, other].map((r) => r.status)).toEqual([200, 200, 404, 403, 200, 200, 200]);
    await api().flushRequestLog!();

    const originOf = async (res: { headers: Headers }) => {
      const id = res.headers.get('request-id');
      const rows = (await api().call({ action: 'list_requests', limit: 100 })).body.data as { id: string; origin: string }[];
      return rows.find((r) => r.id === id)?.origin;
    };
    expect(await Promise.all([read, payout, badRead, denied, plain, seenByConsole, other].map(originOf))).toEqual([
      'console',
      'api',
      'api',
      'api',
      'api',
      'console',
      'api',
    ]);
    // The default view of the console's log: origin api hides only the two marked reads.
    const apiOnly = (await api().call({ action: 'list_requests', origin: 'api', limit: 100 })).body.data as { id: string }[];
    const ids = apiOnly.map((r) => r.id);
    expect(ids).toContain(payout.headers.get('request-id'));
    expect(ids).not.toContain(read.headers.get('request-id'));
    expect(ids).not.toContain(seenByConsole.headers.get('request-id'));
    const consoleOnly = (await api().call({ action: 'list_requests', origin: 'console' })).body.data as { id: string }[];
    expect(consoleOnly.map((r) => r.id)).toEqual([seenByConsole, read].map((r) => r.headers.get('request-id')));
    // Search by a payout's id: its withdrawal and both reads of it, newest first.
    const byPayout = (await api().call({ action: 'list_requests', object_id: payout.body.id })).body.data as { action: string }[];
    expect(byPayout.map((r) => r.action)).toEqual(['get_payout', 'get_payout', 'withdraw']);
    const byPayoutApi = (await api().call({ action: 'list_requests', object_id: payout.body.id, origin: 'api' })).body.data;
    expect(byPayoutApi).toHaveLength(2);
    const bad = await api().call({ action: 'list_requests', origin: 'browser' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'origin']);
  });

  it('get_idempotent_request answers the stored status and body, first seen, replays and expiry', async () => {
    const first = await api().call(withdrawal(30_000), { idempotencyKey: 'look-1' });
    await api().call(withdrawal(30_000), { idempotencyKey: 'look-1' });
    await api().call(withdrawal(30_000), { idempotencyKey: 'look-1' });
    const found = await api().call({ action: 'get_idempotent_request', idempotency_key: 'look-1' });
    expect(found.body).toMatchObject({
      object: 'idempotent_request',
      idempotency_key: 'look-1',
      action: 'withdraw',
      status: 200,
      replay_count: 2,
    });
    expect(found.body.response).toEqual(first.body);
    expect(Date.parse(found.body.expires_at) - Date.parse(found.body.first_seen_at)).toBe(86_400_000);
    const missing = await api().call({ action: 'get_idempotent_request', idempotency_key: 'never' });
    expect([missing.status, missing.body.error.param]).toEqual([404, 'idempotency_key']);
    const keyed = await api().call(
      { action: 'create_restricted_key', name: 'x', permissions: ['balance:read'] },
      { idempotencyKey: 'look-2' },
    );
    const stored = await api().call({ action: 'get_idempotent_request', idempotency_key: 'look-2' });
    expect(stored.body.response).toEqual({ ...keyed.body, secret: null });
  });

  it("drops a purged merchant's entries and writes the rest of the batch, rather than retrying it forever", async () => {
    const lines: string[] = [];
    const log = createRequestLog(api().db, createLogger({ destination: { write: (line: string) => void lines.push(line) } }));
    const entry = (id: string, merchantId: string): RequestLogEntry => ({
      id,
      merchantId,
      at: new Date(),
      action: 'get_balance',
      status: 200,
      errorCode: null,
      ms: 1,
      keyId: 'key_gone',
      idempotencyKey: null,
      replayed: false,
      objectId: null,
      clientAddress: null,
      origin: 'api',
    });
    log.record(entry('req_purged_merchant', 'mer_purgedlongago'));
    log.record(entry('req_live_merchant', api().merchant.id));
    await log.stop();
    const rows = await api().db.query<{ id: string }>(
      `SELECT id FROM request_log WHERE id IN ('req_purged_merchant', 'req_live_merchant')`,
    );
    expect(rows.map((r) => r.id)).toEqual(['req_live_merchant']);
    expect(lines.join('')).not.toContain('request log write failed');
  });

  it('purges rows past retention', async () => {
    await api().call({ action: 'get_balance' });
    await api().flushRequestLog!();
    await api().db.query(`UPDATE request_log SET created_at = now() - interval '31 days' WHERE action = 'get_balance'`);
    expect(await purgeRequestLog(api().db, 30)).toBeGreaterThan(0);
    const [left] = await api().db.query<{ n: number }>(`SELECT count(*)::int AS n FROM request_log WHERE action = 'get_balance'`);
    expect(left!.n).toBe(0);
    // A summary of the BRIN index that fails (here: no such index) leaves the purge to run as it did before.
    await api().call({ action: 'get_balance' });
    await api().flushRequestLog!();
    await api().db.query(`UPDATE request_log SET created_at = now() - interval '31 days' WHERE action = 'get_balance'`);
    const purged = await deleteInBatches(api().db, {
      table: 'request_log',
      key: 'seq',
      select: `SELECT seq FROM request_log WHERE created_at < now() - interval '30 days'`,
      params: [],
      batchSize: 100,
      brin: 'no_such_index',
    });
    expect(purged).toBe(1);
  });
});
