import { lastCompleteMonth, monthInZone } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import { notOnTestClockSql } from '../pipeline/clock';
import { eventCtes } from '../webhooks/event-sql';
import { statementOf } from './statement';

/** A month counts as ended this long after its last instant: writes that began before it have committed by then. */
const GRACE_MS = 60_000;

interface StatementMerchant {
  id: string;
  currency: string;
  time_zone: string;
}

/**
 * statement.ready: once the month has ended in a merchant's zone, one event with that month's
 * statement, for its accounting system to fetch the lines. Sent once per merchant and month however
 * many instances run this: the event is written in the transaction that claims (merchant, month) in
 * statement_runs, and a second claim finds the row and writes nothing. Only the month just ended (no
 * back-fill of older months), and only for a merchant that existed before it ended. `clock` is injectable.
 * A sandbox with a test clock is left out: its months end on its clock (sendClockedStatementReady).
 */
export async function sendStatementsReady(db: Db, clock = Date.now()): Promise<number> {
  const now = clock - GRACE_MS;
  const at = new Date(now).toISOString();
  const due = await db.query<StatementMerchant>(
    `SELECT m.id, m.currency, m.time_zone FROM merchants m
     WHERE m.created_at < (date_trunc('month', $1::timestamptz AT TIME ZONE m.time_zone) AT TIME ZONE m.time_zone)
       AND ${notOnTestClockSql('m', 'id')}
       AND NOT EXISTS (SELECT 1 FROM statement_runs r WHERE r.merchant_id = m.id
         AND r.month = to_char(date_trunc('month', $1::timestamptz AT TIME ZONE m.time_zone) - interval '1 month', 'YYYY-MM'))`,
    [at],
  );
  let sent = 0;
  for (const m of due) {
    if (await db.transaction((tx) => writeStatementReady(tx, m, lastCompleteMonth(now, m.time_zone)))) sent++;
  }
  return sent;
}

/**
 * The same for a sandbox with a test clock, at the clock's time (set on `tx`): advance_test_clock stops
 * at each month's end in the merchant's zone and calls this there. No grace: the sandbox's row is locked
 * while its clock moves, and what it wrote before is committed.
 */
export async function sendClockedStatementReady(tx: Queryable, merchantId: string, clockNow: Date): Promise<boolean> {
  const [m] = await tx.query<StatementMerchant & { created_at: Date }>(
    'SELECT id, currency, time_zone, created_at FROM merchants WHERE id = $1',
    [merchantId],
  );
  const month = lastCompleteMonth(clockNow.getTime(), m!.time_zone);
  if (new Date(m!.created_at).getTime() >= monthInZone(month, m!.time_zone).to) return false;
  return writeStatementReady(tx, m!, month);
}

/** Claims (merchant, month) and writes its statement.ready event in `tx`; false when the month was claimed before. */
async function writeStatementReady(tx: Queryable, m: StatementMerchant, month: string): Promise<boolean> {
  const { from, to } = monthInZone(month, m.time_zone);
  const [claimed] = await tx.query(
    `INSERT INTO statement_runs (merchant_id, month) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING merchant_id`,
    [m.id, month],
  );
  if (!claimed) return false;
  const statement = await statementOf(tx, { id: m.id, currency: m.currency, timeZone: m.time_zone }, from, to);
  await tx.query(
    `WITH src AS (SELECT $1::text AS merchant_id, $2::text AS id),
     ${eventCtes({ from: 'src', type: 'statement.ready', data: '$3::json' })}
     SELECT 1`,
    [m.id, `statement_${month}_${m.id}`, JSON.stringify(statement)],
  );
  return true;
}
