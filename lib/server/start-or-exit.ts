import { ConfigError } from '../config/env';
import { DataDirLockedError } from '../db/dir-lock';
import { getRuntime } from './runtime';

/** Starts the process's runtime; a bad setting or a locked database ends the process with a clear message. */
export async function startOrExit(): Promise<void> {
  try {
    // The console's cookie secret first: generated beside the embedded database, or required
    // with DATABASE_URL (checked before the database is touched).
    const { sessionSecrets } = await import('../session/session-secrets');
    sessionSecrets();
    await getRuntime();
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof DataDirLockedError;
    process.stderr.write(`\nThe payment app could not start:\n${known ? error.message : (error as Error)?.stack ?? error}\n\n`);
    process.exit(1);
  }
}
