import type { AccountSettings } from '../../contract';
import type { Queryable } from '../../db/types';
import { implement } from '../pipeline/action';

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
  const [row] = await db.query<SettingsRow>('SELECT time_zone, low_balance_threshold FROM merchants WHERE id = $1', [merchantId]);
  return settingsObject(row!);
}

export const getAccountSettings = implement('get_account_settings', async ({ db, merchant }) => readAccountSettings(db, merchant.id));

/** Fields not given keep their value: COALESCE for the zone, a flag for the threshold (whose null means "none"). */
export const updateAccountSettings = implement(
  'update_account_settings',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<SettingsRow>(
      `UPDATE merchants SET time_zone = COALESCE($2, time_zone),
         low_balance_threshold = CASE WHEN $3::boolean THEN $4::bigint ELSE low_balance_threshold END
       WHERE id = $1 RETURNING time_zone, low_balance_threshold`,
      [merchant.id, input.time_zone ?? null, input.low_balance_threshold !== undefined, input.low_balance_threshold ?? null],
    );
    return settingsObject(row!);
  },
  { atomic: true },
);
