// npm run merchant -- <create|list|roll-key|revoke> [options]: manage merchants and their secret keys.
import { parseArgs } from 'node:util';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { openDb } from '../lib/db/open-db';
import { createMerchant, listMerchants, revokeKeys, rollKey } from '../lib/payments/merchants';

const USAGE = `Usage: npm run merchant -- <command> [options]

  create --name "Acme" [--balance 500000] [--currency IDR]   new merchant; prints its secret key once
  list                                                      merchants, balances and key hints
  roll-key --id acct_...                                    revoke the merchant's keys and issue a new one
  revoke --id acct_...                                      revoke every key of the merchant

  --json   machine-readable output
Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (the server must be stopped).`;

class UsageError extends Error {}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      balance: { type: 'string', default: '0' },
      currency: { type: 'string', default: 'IDR' },
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command] = positionals;
  if (values.help || !command) return void process.stdout.write(`${USAGE}\n`);

  const out = (human: string, data: unknown) =>
    process.stdout.write(values.json ? `${JSON.stringify(data)}\n` : `${human}\n`);
  const requireId = () => {
    if (!values.id?.startsWith('acct_')) throw new UsageError('--id acct_... is required');
    return values.id;
  };

  const settings = env();
  const db = await openDb({ databaseUrl: settings.DATABASE_URL, dataDir: settings.DATA_DIR, poolSize: 2 });
  try {
    switch (command) {
      case 'create': {
        if (!values.name?.trim()) throw new UsageError('--name is required');
        if (!/^[0-9]{1,15}$/.test(values.balance)) throw new UsageError('--balance must be a whole number of the smallest currency unit');
        if (!/^[A-Z]{3}$/.test(values.currency)) throw new UsageError('--currency must be a three-letter code such as IDR');
        const m = await createMerchant(db, { name: values.name.trim(), openingBalance: Number(values.balance), currency: values.currency });
        out(`Created ${m.id} "${m.name}" with ${m.available} ${m.currency}.\nSecret key (shown only now): ${m.secretKey}`, {
          id: m.id, name: m.name, currency: m.currency, available: m.available, secret_key: m.secretKey,
        });
        break;
      }
      case 'list': {
        const merchants = await listMerchants(db);
        out(
          merchants.map((m) => `${m.id}  ${m.name}  ${m.available} ${m.currency}  keys: ${m.active_keys.join(', ') || '(none)'}`).join('\n') ||
            'No merchants.',
          merchants,
        );
        break;
      }
      case 'roll-key': {
        const id = requireId();
        const key = await rollKey(db, id);
        out(`New secret key for ${id} (shown only now; the old ones no longer work): ${key}`, { id, secret_key: key });
        break;
      }
      case 'revoke': {
        const id = requireId();
        const revoked = await revokeKeys(db, id);
        out(`Revoked ${revoked} key(s) of ${id}.`, { id, revoked });
        break;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirLockedError ||
    /^no merchant with id/.test(error?.message ?? '');
  process.stderr.write(`${known ? error.message : error?.stack ?? error}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
