import type { AccountSettings } from '../../contract';
import type { Queryable } from '../../db/types';
import { readAction, writeAction } from '../pipeline/action';

/** The merchant's account settings (docs/api.md, "Account settings"). */

interface SettingsRow {
  time_zone: string;
  low_balance_threshold: number | null;
}

const settingsObject = (row: SettingsRow): AccountSettings => ({
  object: 'account_settings',
  time_zone: row.time_zone,
  low_balance_threshold: row.low_balance_threshold,
});

export async function readAccountSettings(db: Queryable, merchantId: string): Promise<AccountSettings> {
  const [row] = await db.query<SettingsRow>(
    'SELECT m.time_zone, b.low_balance_threshold FROM merchants m JOIN balances b ON b.merchant_id = m.id WHERE m.id = $1',
    [merchantId],
  );
  return settingsObject(row!);
}

export const getAccountSettings = readAction('get_account_settings', async ({ db, merchant }) => readAccountSettings(db, merchant.id));

/**
 * Fields not given keep their value: COALESCE for the zone, a flag for the threshold (whose null means "none").
 * The threshold is written on the balance row only when it changes (that row is every withdrawal's hot row), and
 * there its row trigger sends balance.low at once should the balance already be below it (migration 45).
 */
export const updateAccountSettings = writeAction(
  'update_account_settings',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<SettingsRow>(
      `WITH m AS (UPDATE merchants SET time_zone = COALESCE($2, time_zone) WHERE id = $1 RETURNING time_zone),
         b AS (UPDATE balances SET low_balance_threshold = $4::bigint
               WHERE merchant_id = $1 AND $3::boolean AND low_balance_threshold IS DISTINCT FROM $4::bigint RETURNING 1)
       SELECT m.time_zone, CASE WHEN $3::boolean THEN $4::bigint
                                ELSE (SELECT low_balance_threshold FROM balances WHERE merchant_id = $1) END AS low_balance_threshold
       FROM m`,
      [merchant.id, input.time_zone ?? null, input.low_balance_threshold !== undefined, input.low_balance_threshold ?? null],
    );
    return settingsObject(row!);
  },
  { atomic: true },
);
