/**
 * Statements the hot paths run thousands of times a second (authentication, a group's
 * claim and write), marked so that a PostgreSQL connection parses and plans each once
 * instead of on every call: at a group of three withdrawals, planning the write took
 * longer than running it (docs/prove.md, "Where a withdrawal's CPU goes"). Only constant
 * texts belong here (the name is per text, kept per connection by the driver). The
 * embedded database and a transaction-mode pooler (PgBouncer before 1.21 cannot carry
 * named statements between connections) run them unnamed.
 */
const names = new Map<string, string>();

/** Marks `sql` as prepared; returns it unchanged, so a constant is declared as `prepared(`…`)`. */
export function prepared(sql: string): string {
  if (!names.has(sql)) names.set(sql, `hot_${names.size + 1}`);
  return sql;
}

/** The statement name of a marked text, or undefined for any other. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}
