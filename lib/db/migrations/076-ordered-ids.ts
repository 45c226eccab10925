/**
 * Event and delivery ids in time order, as UUIDv7 orders its digits: `new_id` keeps its format (prefix, `_`, 32 hex
 * digits) with the first 12 digits the millisecond clock and the other 20 random (80 bits, gen_random_uuid's random
 * digits: its version and variant digits left out). The events' primary key, keyed by random ids, split pages all
 * over and settled at about 70% full (75 bytes an event); keyed by ids in the order they are made it grows at its
 * right edge with full pages (docs/prove.md, "Event ids in time order"). Ids made before keep their digits and their
 * places. Replacing a function locks no table: statements that started with the old definition finish with it.
 */
export const sql = /* sql */ `
CREATE OR REPLACE FUNCTION new_id(prefix text) RETURNS text LANGUAGE sql VOLATILE
  AS $$ SELECT prefix || '_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
               || substr(u, 1, 12) || substr(u, 18, 8)
          FROM replace(gen_random_uuid()::text, '-', '') AS u $$;
`;
