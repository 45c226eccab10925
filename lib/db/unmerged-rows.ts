/**
 * The first two steps of every fold of a figures table (`merged = false` rows, one per write, folded into one
 * merged row per key): `picked`, up to `$1` unmerged rows claimed FOR UPDATE SKIP LOCKED (instances share the
 * work), and `gone`, those rows deleted and returned for the fold's sums.
 *
 * `order` is the key of the table's partial index on its unmerged rows: ordered so, the pick walks that index,
 * statistics or not (a bare LIMIT was planned, without them, as a scan from the table's start through every merged
 * row of the history). The delete then takes the claimed rows by their ctids as one array: as a join, the planner
 * hashed them against a scan of the whole table.
 */
export const takeUnmergedSql = (table: string, order: string) =>
  `picked AS (SELECT ctid FROM ${table} WHERE NOT merged ORDER BY ${order} LIMIT $1 FOR UPDATE SKIP LOCKED),
     gone AS (DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM picked)) RETURNING *)`;
