/** An index built by an index migration: `CREATE INDEX <name> ON <on> [WHERE <where>]`. */
export interface IndexStep {
  name: string;
  /** Table and key, as in CREATE INDEX: `payouts (merchant_id, status, seq DESC)`. */
  on: string;
  where?: string;
}

/**
 * A migration is a SQL script, run in a transaction, or a list of indexes, built
 * outside one (CREATE INDEX CONCURRENTLY on PostgreSQL, so that writes go on
 * while a big table is indexed; see migrate.ts), with indexes it makes redundant to drop.
 */
export type Migration =
  { version: number; name: string; sql: string } | { version: number; name: string; indexes: IndexStep[]; drop?: string[] };
