// npm run merchant -- <create|list|roll-key|create-restricted-key|revoke|bank-down|bank-up|bank-outages> [options]: manage
// merchants and their keys, and mark a receiving bank unavailable.
import { parseArgs } from 'node:util';
import { ADMIN_PATH, readAdminAccess } from '../lib/admin/admin-endpoint';
import { runMerchantCommand, UsageError, type MerchantCommand } from '../lib/admin/merchant-commands';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { openDb } from '../lib/db/open-db';

const USAGE = `Usage: npm run merchant -- <command> [options]

  create --name "Acme" [--balance 500000] [--currency IDR]   new merchant; prints its secret key once
  list                                                      merchants, balances and key hints
  roll-key --id acct_... [--expires-in 3600]                issue a new secret key; the old one is revoked now,
                                                            or works for --expires-in more seconds (at most 7 days)
  create-restricted-key --id acct_... --name "Support — Ana" --permissions payouts:write,balance:read [--max-payout 500000]
                                                            a restricted key (rk_test_...), printed once
  revoke --id acct_...                                      revoke every key of the merchant
  bank-down --bank BNI (--for 3600 | --until 2026-01-01T09:00:00Z) [--reason "..."]
                                                            the bank is unavailable: its payouts stay pending
                                                            (not failed) until the window ends or bank-up
  bank-up --bank BNI                                        the bank is back: its held payouts settle now
  bank-outages                                              the windows now and to come

  --json   machine-readable output
Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR; while a server holds that
folder, the command is sent to the server (from this machine only, with the token it keeps there).`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      balance: { type: 'string', default: '0' },
      currency: { type: 'string', default: 'IDR' },
      id: { type: 'string' },
      permissions: { type: 'string' },
      'max-payout': { type: 'string' },
      'expires-in': { type: 'string' },
      bank: { type: 'string' },
      until: { type: 'string' },
      for: { type: 'string' },
      reason: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command] = positionals;
  if (values.help || !command) return void process.stdout.write(`${USAGE}\n`);
  const c: MerchantCommand = {
    command,
    name: values.name,
    balance: values.balance,
    currency: values.currency,
    id: values.id,
    permissions: values.permissions,
    maxPayout: values['max-payout'],
    expiresIn: values['expires-in'],
    bank: values.bank,
    until: values.until,
    for: values.for,
    reason: values.reason,
  };
  const { human, data } = await run(c);
  process.stdout.write(values.json ? `${JSON.stringify(data)}\n` : `${human}\n`);
}

/** On the database itself, or through the server that holds the embedded one. */
async function run(c: MerchantCommand): Promise<{ human: string; data: unknown }> {
  const settings = env();
  let db;
  try {
    db = await openDb({ databaseUrl: settings.DATABASE_URL, dataDir: settings.DATA_DIR, poolSize: 2 });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const access = readAdminAccess(settings.DATA_DIR);
    if (!access) throw error;
    const res = await fetch(access.url + ADMIN_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${access.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(c),
    });
    const body = await res.json();
    if (res.status === 400) throw new UsageError(body.error.message);
    if (res.status !== 200) throw new Error(`the running server answered ${res.status}: ${body?.error?.message ?? ''}`);
    return body;
  }
  try {
    return await runMerchantCommand(db, c);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  const known =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    /^no merchant with id/.test(error?.message ?? '');
  process.stderr.write(`${known ? error.message : (error?.stack ?? error)}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
