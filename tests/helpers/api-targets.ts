import { openDb } from '@/lib/db/open-db';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { callApi, startTestApi, type TestApi } from './api-server';
import { backends, createSchemaUrl, postgresUrl, type Backend } from '../../testing/databases';
import { ensureNextBuild } from '../../testing/next-build';
import { ServerProcess } from '../../testing/server-process';

export type StartOptions = NonNullable<Parameters<typeof startTestApi>[1]>;

/** Somewhere the API integration suite can run: a mount of the core on a fresh database. */
export interface ApiTarget {
  name: string;
  start(opts?: StartOptions): Promise<TestApi>;
}

/** The core's settings as the environment variables a server process reads. */
function settingsEnv(settings: StartOptions['settings'] = {}): Record<string, string> {
  const env: Record<string, string> = { AUTH_FAILURES_PER_MINUTE: String(settings.authFailuresPerMinute ?? 1_000) };
  if (settings.idempotencyTtlSeconds !== undefined) env.IDEMPOTENCY_KEY_TTL_SECONDS = String(settings.idempotencyTtlSeconds);
  if (settings.idempotencyWaitSeconds !== undefined) env.IDEMPOTENCY_WAIT_SECONDS = String(settings.idempotencyWaitSeconds);
  if (settings.settlementDelaySeconds !== undefined) env.SETTLEMENT_DELAY_SECONDS = String(settings.settlementDelaySeconds);
  if (settings.payoutApprovalExpirySeconds !== undefined) env.PAYOUT_APPROVAL_EXPIRY_SECONDS = String(settings.payoutApprovalExpirySeconds);
  return env;
}

/**
 * Next's mount (`/v1/index.php` route) in a `next start` process on a fresh
 * PostgreSQL schema. The test process opens the same schema, so tests create
 * merchants and read rows exactly as they do in process. (An embedded database
 * belongs to one process, hence PostgreSQL only.)
 */
export const nextTarget: ApiTarget = {
  name: 'next on postgres',
  async start(opts = {}) {
    const url = await createSchemaUrl();
    const db = await openDb({ databaseUrl: url, poolSize: 5 });
    const merchant = await createMerchant(db, { name: 'Test Shop', openingBalance: opts.openingBalance ?? 10_000_000 });
    const server = new ServerProcess({ kind: 'next', databaseUrl: url, distDir: await ensureNextBuild(), env: settingsEnv(opts.settings) });
    try {
      await server.start();
    } catch (error) {
      await db.close();
      throw error;
    }
    return {
      url: server.url,
      db,
      merchant,
      call: (body, callOpts) => callApi(server.url, merchant.secretKey, body, callOpts),
      close: async () => void (await server.stop()),
    };
  },
};

/** node:http in this process (the standalone server's mount) on each backend. */
const nodeHttpTarget = (backend: Backend): ApiTarget => ({
  name: backend.name,
  start: async (opts) => startTestApi(await backend.open(), opts),
});

/** Every mount the API integration suite runs against: node:http on each backend, and Next when PostgreSQL is there. */
export const apiTargets: ApiTarget[] = [...backends.map(nodeHttpTarget), ...(postgresUrl ? [nextTarget] : [])];
