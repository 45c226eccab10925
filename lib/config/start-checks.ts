import { ConfigError, type Env } from './env';

export const SESSION_SECRET_REQUIRED =
  'SESSION_SECRET must be set when DATABASE_URL or CONSOLE_DATABASE_URL is set: every instance behind one address must\n' +
  'seal the console cookie with the same secret. Generate one with `openssl rand -base64 32` and set it on every instance.';

/** The console's store is a database several instances share (not the embedded one): its cookie secret must be shared too. */
export const consoleStoreIsShared = (settings: Pick<Env, 'DATABASE_URL' | 'CONSOLE_DATABASE_URL'>) =>
  Boolean(settings.DATABASE_URL || settings.CONSOLE_DATABASE_URL);

export const SEALING_KEY_REQUIRED =
  'SECRETS_ENCRYPTION_KEY must be set when DATABASE_URL is set: every instance must open the webhook secrets the\n' +
  'others sealed. Generate one with `openssl rand -base64 32` and set it on every instance.';

export const DIRECT_URL_REQUIRED =
  'DATABASE_DIRECT_URL must be set when DATABASE_POOLER=transaction: the migrations hold one session (an advisory\n' +
  'lock, and indexes built with CREATE INDEX CONCURRENTLY outside a transaction), which a transaction pooler cannot\n' +
  'give. Point it at PostgreSQL itself, not at the pooler.';

/**
 * The settings that only matter together with others, checked before the database is
 * opened: a start that is going to be refused must not migrate, seed the demo merchant
 * or print a key first (the next start, on a database no longer empty, would print none).
 * `console`: this process serves the console (npm start, npm run dev), whose cookie needs a
 * shared secret; `npm run start:api` does not.
 */
export function checkBeforeOpening(settings: Env, opts: { console: boolean }): void {
  const problems: string[] = [];
  if (opts.console && consoleStoreIsShared(settings) && !settings.SESSION_SECRET) problems.push(SESSION_SECRET_REQUIRED);
  if (!settings.PAYMENT_API_BASE_URL && settings.DATABASE_URL && !settings.SECRETS_ENCRYPTION_KEY) problems.push(SEALING_KEY_REQUIRED);
  if (settings.DATABASE_URL && settings.DATABASE_POOLER === 'transaction' && !settings.DATABASE_DIRECT_URL)
    problems.push(DIRECT_URL_REQUIRED);
  if (problems.length > 0) throw new ConfigError(problems.join('\n\n'));
}
