/** An index built by an index migration: `CREATE [UNIQUE] INDEX <name> ON <on> [WHERE <where>]`. */
export interface IndexStep {
  name: string;
  unique?: boolean;
  /** Table and key, as in CREATE INDEX: `payouts (merchant_id, status, seq DESC)`. */
  on: string;
  where?: string;
}

/**
 * A migration is a SQL script, run in a transaction, or a list of indexes, built
 * outside one (CREATE INDEX CONCURRENTLY on PostgreSQL, so that writes go on
 * while a big table is indexed; see migrate.ts), with indexes it makes redundant to drop,
 * or a repeated step (below).
 */
export type Migration =
  { version: number; name: string; sql: string } | { version: number; name: string; indexes: IndexStep[]; drop?: string[] } | RepeatedStep;

/**
 * A backfill in short transactions, outside any migration transaction, so that writers never wait for
 * the whole of it: `repeat` is one statement, run with $1 = what its previous run returned (null at
 * first) until it returns null (a column `next`). Each run must be safe to repeat (an interrupted
 * migration starts it again from the beginning), or keep its progress in a table of its own and
 * go on from there (migration 088).
 */
export interface RepeatedStep {
  version: number;
  name: string;
  repeat: string;
}
