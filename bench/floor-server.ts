// The floor: a bare node:http server on the same driver (lib/db) running the same SQL as the core's
// get_balance and withdraw, with nothing else (no Request objects, no zod, no error mapping).
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { openDb } from '../lib/db/open-db';

type Db = Awaited<ReturnType<typeof openDb>>;
let db: Db;
let pg = false;

async function read(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function merchantFor(header: string | undefined) {
  const key = header?.slice(7) ?? '';
  const [m] = await db.query<{ id: string; name: string; currency: string }>(
    `SELECT m.id, m.name, m.currency FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
     WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [createHash('sha256').update(key, 'utf8').digest('hex')],
  );
  return m;
}

async function balance(m: { id: string; name: string }) {
  const [row] = await db.query<{ currency: string; available: number; pending_payouts: number }>(
    `SELECT currency, available, pending_payouts FROM balances WHERE merchant_id = $1`,
    [m.id],
  );
  return { object: 'balance', merchant: { id: m.id, name: m.name }, currency: row!.currency, available: row!.available, pending_payouts: row!.pending_payouts };
}

async function withdraw(m: { id: string; currency: string }, key: string, body: any) {
  return db.transaction(async (tx) => {
    if (pg) await tx.query(`SELECT set_config('lock_timeout', $1, true)`, ['5000ms']);
    await tx.query(
      `INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, key) DO UPDATE SET action = EXCLUDED.action, fingerprint = EXCLUDED.fingerprint, created_at = now(),
         response_status = NULL, response_body = NULL
       WHERE idempotency_keys.created_at <= now() - make_interval(secs => $5) RETURNING 1`,
      [m.id, key, 'withdraw', 'f', 86_400],
    );
    if (pg) await tx.query(`SELECT set_config('lock_timeout', '0', true)`);
    await tx.query('SAVEPOINT business');
    const id = `po_${randomBytes(12).toString('hex')}`;
    const [debited] = await tx.query<{ available: number }>(
      `UPDATE balances SET available = available - $2, pending_payouts = pending_payouts + $2, updated_at = now()
     WHERE merchant_id = $1 AND available >= $2 RETURNING available`,
      [m.id, body.amount],
    );
    await tx.query(`INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id) VALUES ($1, $2, $3, $4, $5)`, [
      m.id, -body.amount, debited!.available, 'payout', id,
    ]);
    const [row] = await tx.query(
      `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', now() + make_interval(secs => $7)) RETURNING *`,
      [id, m.id, body.amount, m.currency, body.bank_code, body.account_number, 3],
    );
    const out = JSON.stringify(row);
    await tx.query(`UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE merchant_id = $1 AND key = $2`, [m.id, key, 200, out]);
    return out;
  });
}

async function main() {
  db = await openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  pg = db.kind === 'postgres';
  http.createServer(handle).listen(Number(process.env.PORT), '127.0.0.1');
}

const handle: http.RequestListener = async (req, res) => {
    try {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = await merchantFor(req.headers.authorization);
      const body = await read(req);
      if (!m) return void res.writeHead(401).end();
      const out =
        body.action === 'withdraw' ? await withdraw(m, String(req.headers['x-service-idempotency']), body) : JSON.stringify(await balance(m));
      res.writeHead(200, { 'content-type': 'application/json' }).end(out);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  };

void main();
