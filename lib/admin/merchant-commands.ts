import type { Db } from '../db/types';
import { createMerchant, listMerchants, revokeKeys, rollKey } from '../payments/merchants';

/** A command of `npm run merchant`, as the CLI parsed it. */
export interface MerchantCommand {
  command: string;
  name?: string;
  balance?: string;
  currency?: string;
  id?: string;
}

export class UsageError extends Error {}

/**
 * The merchant commands, on a database: run by the CLI itself when it can open
 * the database, and by the running server's local administration endpoint when
 * the embedded database is that server's (lib/admin/admin-endpoint.ts).
 * Returns the line for a person and the object for --json.
 */
export async function runMerchantCommand(db: Db, c: MerchantCommand): Promise<{ human: string; data: unknown }> {
  const requireId = () => {
    if (!c.id?.startsWith('acct_')) throw new UsageError('--id acct_... is required');
    return c.id;
  };
  switch (c.command) {
    case 'create': {
      const balance = c.balance ?? '0';
      const currency = c.currency ?? 'IDR';
      if (!c.name?.trim()) throw new UsageError('--name is required');
      if (!/^[0-9]{1,15}$/.test(balance)) throw new UsageError('--balance must be a whole number of the smallest currency unit');
      if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError('--currency must be a three-letter code such as IDR');
      const m = await createMerchant(db, { name: c.name.trim(), openingBalance: Number(balance), currency });
      return {
        human: `Created ${m.id} "${m.name}" with ${m.available} ${m.currency}.\nSecret key (shown only now): ${m.secretKey}`,
        data: { id: m.id, name: m.name, currency: m.currency, available: m.available, secret_key: m.secretKey },
      };
    }
    case 'list': {
      const merchants = await listMerchants(db);
      return {
        human:
          merchants.map((m) => `${m.id}  ${m.name}  ${m.available} ${m.currency}  keys: ${m.active_keys.join(', ') || '(none)'}`).join('\n') ||
          'No merchants.',
        data: merchants,
      };
    }
    case 'roll-key': {
      const id = requireId();
      const key = await rollKey(db, id);
      return { human: `New secret key for ${id} (shown only now; the old ones no longer work): ${key}`, data: { id, secret_key: key } };
    }
    case 'revoke': {
      const id = requireId();
      const revoked = await revokeKeys(db, id);
      return { human: `Revoked ${revoked} key(s) of ${id}.`, data: { id, revoked } };
    }
    default:
      throw new UsageError(`unknown command: ${c.command}`);
  }
}
