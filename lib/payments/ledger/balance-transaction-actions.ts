import { ApiError, balanceTransactionId, ledgerEntryOf, SOURCED_TYPES } from '../../contract';
import type { Queryable } from '../../db/types';
import { withoutBitmapScans } from '../../db/planner-settings';
import { listObject } from '../pipeline/api-object';
import { readAction } from '../pipeline/action';
import { identityRange } from './daily-figures';
import { checkedOnTheWay } from '../pipeline/list-page';

interface LedgerRow {
  id: string | number;
  amount: number;
  balance_after: number;
  kind: string;
  reference_id: string;
  bank_reference: string | null;
  created_at: Date | string;
}

const LINE_COLUMNS = 'l.id, l.amount, l.balance_after, l.kind, l.reference_id, l.created_at, p.bank_reference';

const lineOf = (currency: string) => (r: LedgerRow) => ({
  id: balanceTransactionId(r.id),
  object: 'balance_transaction' as const,
  amount: Number(r.amount),
  currency,
  balance_after: Number(r.balance_after),
  type: r.kind as never,
  source: r.reference_id,
  bank_reference: r.bank_reference ?? null,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * The one entry of `type` that `source` caused: a look-up on the unique (reference_id, hashtext(kind)) index
 * (migration 074), whose partial predicate the planner can only match against a literal kind (one of the
 * contract's, never input text). The kind's hash is named too: the whole unique key, one row, statistics or not.
 */
async function entryOfSource(db: Queryable, merchant: { id: string }, type: string | undefined, source: string): Promise<LedgerRow[]> {
  const kind = SOURCED_TYPES.find((t) => t === type);
  if (!kind) throw new ApiError('invalid_request', `source needs a type: one of ${SOURCED_TYPES.join(', ')}`, 'source');
  return db.query<LedgerRow>(
    `SELECT ${LINE_COLUMNS} FROM ledger_entries l
     LEFT JOIN payouts p ON p.id = l.reference_id AND l.kind IN ('payout', 'payout_reversal', 'payout_return') AND p.merchant_id = $1
     WHERE l.kind = '${kind}' AND hashtext(l.kind) = hashtext('${kind}') AND l.reference_id = $2 AND l.merchant_id = $1`,
    [merchant.id, source],
  );
}

/** list_balance_transactions: the merchant's ledger, newest first, cursor pages on the entry's identity. */
export const listBalanceTransactions = readAction('list_balance_transactions', async ({ db, merchant }, input) => {
  const limit = input.limit ?? 10;
  let cursor: number | null = null;
  if (input.starting_after) {
    cursor = ledgerEntryOf(input.starting_after);
    const [row] =
      cursor === null ? [] : await db.query(`SELECT 1 FROM ledger_entries WHERE id = $1 AND merchant_id = $2`, [cursor, merchant.id]);
    if (!row) throw new ApiError('not_found', `No such balance transaction: ${input.starting_after}`, 'starting_after');
  }
  if (input.source) return listObject((await entryOfSource(db, merchant, input.type, input.source)).map(lineOf(merchant.currency)), false);
  // A date filter is also a range of ids, the list's order: a page deep in the dates is a range scan.
  const range =
    input.created_gte || input.created_lt ? await identityRange(db, 'ledger', merchant.id, input.created_gte, input.created_lt) : undefined;
  if (range?.empty) return listObject([], false);
  // The page first, then its payout lines joined by primary key: a statement line carries the bank's reference.
  // The page walks the merchant's ledger newest first (within a date filter's id range), the common kind `payout`
  // and the dates checked on the way (checkedOnTheWay: so planned with or without statistics). Any other kind is
  // rare and read through its own (merchant_id, kind, id) index, in that index's own order: the kind as a range of
  // one value (not an equality, which the planner would fold out of the order) ordered by (kind, id), so no other
  // index gives the order. With `kind =` and statistics, the planner expected the kind spread through the history
  // and walked the ledger newest first for it, past every newer entry (100,000 pending payouts on top of the
  // reversals in the plan test's half mix).
  const rare = input.type !== undefined && input.type !== 'payout';
  const kind =
    input.type === undefined
      ? ' AND $3::text IS NULL'
      : rare
        ? ' AND kind >= $3::text AND kind <= $3::text'
        : ` AND ${checkedOnTheWay('kind = $3::text')}`;
  // A rare kind, or a day's page by dates: without statistics (a server whose autovacuum is off, right after a
  // bulk load) the planner guesses a handful of matches and gathers every one of them through a bitmap, then sorts:
  // all the kind's entries, or the whole id range of the days. The walk down (merchant_id, kind, id) or (merchant_id,
  // id) reads the page only, statistics or not, so the bitmap is ruled out for this statement (tests/db/query-plans).
  const walk = rare || range !== undefined;
  const read = (q: Queryable) =>
    q.query<LedgerRow>(
      `SELECT ${LINE_COLUMNS} FROM (
       SELECT id, amount, balance_after, kind, reference_id, created_at FROM ledger_entries
       WHERE merchant_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)${kind}
         AND ${checkedOnTheWay('($4::timestamptz IS NULL OR created_at >= $4::timestamptz) AND ($5::timestamptz IS NULL OR created_at < $5::timestamptz)')}
         AND ($7::bigint IS NULL OR id >= $7::bigint) AND ($8::bigint IS NULL OR id <= $8::bigint)
       ORDER BY ${rare ? 'kind DESC, id DESC' : 'id DESC'} LIMIT $6) l
     LEFT JOIN payouts p ON p.id = l.reference_id AND l.kind IN ('payout', 'payout_reversal', 'payout_return') AND p.merchant_id = $1
     ORDER BY l.id DESC`,
      [
        merchant.id,
        cursor,
        input.type ?? null,
        input.created_gte ?? null,
        input.created_lt ?? null,
        limit + 1,
        range?.low ?? null,
        range?.high ?? null,
      ],
    );
  const rows = walk ? await withoutBitmapScans(db, read) : await read(db);
  const page = rows.slice(0, limit);
  const data = page.map(lineOf(merchant.currency));
  return listObject(data, rows.length > limit);
});
