import type { Db } from '../db/types';
import { ACTIONS, describeFirstIssue, isId, MAX_KEY_GRACE_SECONDS, PERMISSIONS, TEST_BANK_CODES } from '../contract';
import { currentBankOutages, markBankDown, markBankUp } from '../payments/payouts/bank-outages';
import { insertRestrictedKey, rollSecretKey } from '../payments/keys/api-keys';
import { createMerchant, listMerchants, requireMerchant, revokeKeys } from '../payments/merchants/merchants';

/** A command of `npm run merchant`, as the CLI parsed it. */
export interface MerchantCommand {
  command: string;
  name?: string;
  balance?: string;
  currency?: string;
  id?: string;
  /** create-restricted-key: comma-separated permissions, and an optional payout limit. */
  permissions?: string;
  maxPayout?: string;
  /** roll-key: seconds the old secret key keeps working (0, the default: revoked now). */
  expiresIn?: string;
  /** bank-down / bank-up: the receiving bank; bank-down's window ends at `until` (ISO time) or `for` seconds from now. */
  bank?: string;
  until?: string;
  for?: string;
  reason?: string;
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
    if (!c.id || !isId('acct', c.id)) throw new UsageError('--id acct_... is required');
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
          merchants
            .map((m) => `${m.id}  ${m.name}  ${m.available} ${m.currency}  keys: ${m.active_keys.join(', ') || '(none)'}`)
            .join('\n') || 'No merchants.',
        data: merchants,
      };
    }
    case 'roll-key': {
      const id = requireId();
      const grace = c.expiresIn ?? '0';
      if (!/^[0-9]{1,6}$/.test(grace) || Number(grace) > MAX_KEY_GRACE_SECONDS) {
        throw new UsageError(`--expires-in must be 0 to ${MAX_KEY_GRACE_SECONDS} seconds`);
      }
      await requireMerchant(db, id);
      // The API's roll: the secret key is replaced, restricted keys keep working.
      const key = await rollSecretKey(db, id, Number(grace));
      const old = grace === '0' ? 'the old secret key no longer works' : `the old secret key works for ${grace} more seconds`;
      return { human: `New secret key for ${id} (shown only now; ${old}): ${key.secret}`, data: { id, secret_key: key.secret, key } };
    }
    case 'create-restricted-key': {
      const id = requireId();
      const input = ACTIONS.create_restricted_key.request.safeParse({
        action: 'create_restricted_key',
        name: c.name,
        permissions: c.permissions?.split(',').map((p) => p.trim()),
        ...(c.maxPayout === undefined ? {} : { max_payout_amount: Number(c.maxPayout) }),
      });
      if (!input.success) throw new UsageError(`${describeFirstIssue(input.error).message} (permissions: ${PERMISSIONS.join(', ')})`);
      await requireMerchant(db, id);
      const key = await insertRestrictedKey(db, id, input.data);
      return {
        human: `Restricted key ${key.id} "${key.name}" for ${id} (${key.permissions!.join(', ')}), shown only now: ${key.secret}`,
        data: key,
      };
    }
    case 'revoke': {
      const id = requireId();
      const revoked = await revokeKeys(db, id);
      return { human: `Revoked ${revoked} key(s) of ${id}.`, data: { id, revoked } };
    }
    case 'bank-down': {
      const bank = requireBank(c.bank);
      const endsAt = c.until ? new Date(c.until) : new Date(Date.now() + 1000 * Number(c.for ?? NaN));
      if (Number.isNaN(endsAt.getTime()) || endsAt.getTime() <= Date.now())
        throw new UsageError('--until (a future ISO time) or --for (seconds) is required');
      const o = await markBankDown(db, { bankCode: bank, endsAt, reason: c.reason });
      return {
        human: `${bank} marked down until ${o.ends_at.toISOString()} (${o.id}): its payouts stay pending until then, or until bank-up.`,
        data: o,
      };
    }
    case 'bank-up': {
      const bank = requireBank(c.bank);
      const r = await markBankUp(db, bank);
      return {
        human: `${bank} is back: ${r.outages} outage(s) ended, ${r.released} held payout(s) due now.`,
        data: { bank_code: bank, ...r },
      };
    }
    case 'bank-outages': {
      const outages = await currentBankOutages(db);
      return {
        human:
          outages
            .map((o) => `${o.id}  ${o.bank_code}  ${o.starts_at.toISOString()} .. ${o.ends_at.toISOString()}  ${o.reason}`)
            .join('\n') || 'No bank is marked down.',
        data: outages,
      };
    }
    default:
      throw new UsageError(`unknown command: ${c.command}`);
  }
}

function requireBank(bank: string | undefined): string {
  if (!bank || !(TEST_BANK_CODES as readonly string[]).includes(bank))
    throw new UsageError(`--bank must be one of ${TEST_BANK_CODES.join(', ')}`);
  return bank;
}
