// The floor: a bare node:http server on the same driver (lib/db) running the same SQL as the core's
// get_balance and withdraw, with nothing else (no Request objects, no zod, no error mapping).
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { ActionRequest } from '../lib/contract';
import { ALL_ADDRESSES } from '../lib/db/auth-failures';
import { openDb } from '../lib/db/open-db';
import { AUTH_SQL } from '../lib/payments/pipeline/authenticate';
import { CLAIM_SQL } from '../lib/payments/pipeline/idempotency';
import { withdrawStatement } from '../lib/payments/payouts/withdraw-statement';

type Db = Awaited<ReturnType<typeof openDb>>;
let db: Db;

async function read(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function merchantFor(header: string | undefined, address: string) {
  const key = header?.slice(7) ?? '';
  const [m] = await db.query<{
    id: string | null;
    name: string;
    currency: string;
    failures: number;
    key_id: string;
    key_type: string;
    key_name: string | null;
  }>(AUTH_SQL, [[createHash('sha256').update(key, 'utf8').digest('hex')], [address], ALL_ADDRESSES]);
  return m?.id
    ? (m as { id: string; name: string; currency: string; key_id: string; key_type: string; key_name: string | null })
    : undefined;
}

async function balance(m: { id: string; name: string }) {
  const [row] = await db.query<{ currency: string; available: number; pending_payouts: number }>(
    `SELECT currency, available, pending_payouts FROM balances WHERE merchant_id = $1`,
    [m.id],
  );
  return {
    object: 'balance',
    merchant: { id: m.id, name: m.name },
    currency: row!.currency,
    available: row!.available,
    pending_payouts: row!.pending_payouts,
  };
}

/** The core's withdraw transaction, SQL for SQL: claim, one statement that also stores the answer, COMMIT. */
async function withdraw(
  m: { id: string; currency: string; key_id: string; key_type: string; key_name: string | null },
  key: string,
  body: Pick<ActionRequest<'withdraw'>, 'amount' | 'bank_code' | 'account_number'>,
) {
  return db.transaction(
    async (tx) => {
      const [claim] = await tx.query<{ now: Date }>(CLAIM_SQL, [m.id, key, 'withdraw', 'f', 86_400]);
      const id = `po_${randomBytes(12).toString('hex')}`;
      const out = JSON.stringify({
        object: 'payout',
        id,
        amount: body.amount,
        currency: m.currency,
        status: 'pending',
        created_at: claim!.now,
      });
      const { sql, params } = withdrawStatement(
        {
          payoutId: id,
          merchantId: m.id,
          amount: body.amount,
          currency: m.currency,
          bankCode: body.bank_code,
          accountNumber: body.account_number,
          settleDelaySeconds: 3,
          createdBy: JSON.stringify({ key_id: m.key_id, key_name: m.key_name, type: m.key_type }),
          status: 'pending',
          accountHolderName: null,
          approvalExpirySeconds: null,
        },
        { merchantId: m.id, key },
        out,
      );
      await tx.query(sql, params);
      return out;
    },
    { lockTimeoutMs: 5000 },
  );
}

async function main() {
  db = await openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR,
    poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  http.createServer(handle).listen(Number(process.env.PORT), '127.0.0.1');
}

const handle: http.RequestListener = async (req, res) => {
  try {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const m = await merchantFor(req.headers.authorization, req.socket.remoteAddress ?? 'unknown');
    const body = await read(req);
    if (!m) return void res.writeHead(401).end();
    const out =
      body.action === 'withdraw'
        ? await withdraw(m, String(req.headers['x-service-idempotency']), body as ActionRequest<'withdraw'>)
        : JSON.stringify(await balance(m));
    res.writeHead(200, { 'content-type': 'application/json' }).end(out);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
};

void main();
