// The composition of one process (npm start, npm run dev): the API runtime unless PAYMENT_API_BASE_URL
// points elsewhere, and the console wired to it. scripts/start.ts hands the parts to Next and the server.
import type { Env } from '../../lib/config/env';
import type { Logger } from '../../lib/log';
import type { ServedProcess } from '../../lib/server/app-server';
import { CLIENT_ADDRESS_HEADER } from '../../lib/server/client-address';
import { createMetrics, type Metrics } from '../../lib/server/metrics';
import { checkBeforeOpening } from '../../lib/config/start-checks';
import { startApiRuntime, type ApiRuntime } from './api-runtime';
import { startConsoleSide, type ConsoleSide } from './console-side';

export interface ComposedProcess {
  /** Absent in a console-only process. */
  api?: ApiRuntime;
  console: ConsoleSide<Metrics>;
  /** What the app server serves and stops. */
  served: ServedProcess;
}

export async function composeProcess(settings: Env, log: Logger): Promise<ComposedProcess> {
  // Every setting before a database: a refused start writes nothing and prints no key.
  checkBeforeOpening(settings, { console: true });
  const api = settings.PAYMENT_API_BASE_URL ? undefined : await startApiRuntime(settings, log);
  const consoleSide = await startConsoleSide(settings, log, {
    api,
    // The app server (lib/server/app-server.ts) puts the socket's address there, replacing any the browser sent.
    clientAddress: (headers) => headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown',
    metricsOf: (store) => createMetrics(store, { payments: false }),
  }).catch(async (error) => {
    await api?.stop();
    throw error;
  });
  const served: ServedProcess = api
    ? {
        ...api,
        async stop() {
          await consoleSide.stop();
          await api.stop();
        },
      }
    : { settings, db: consoleSide.db, metrics: consoleSide.metrics!, stop: consoleSide.stop };
  return { api, console: consoleSide, served };
}

/** The API alone (npm run start:api): no console, so no console settings to check. */
export async function composeApiProcess(settings: Env, log: Logger): Promise<ApiRuntime> {
  checkBeforeOpening(settings, { console: false });
  return startApiRuntime(settings, log);
}
