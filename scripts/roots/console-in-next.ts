// The composition root of a console that Next starts (`next start`, the standalone server, any host
// that runs a Next.js app): Next's instrumentation (instrumentation.ts) calls it once, before the
// first request, when no start script wired the console. The payment API runs elsewhere
// (PAYMENT_API_BASE_URL); everything else comes from the environment, as in a console-only `npm start`.
import { ConfigError, env } from '../../lib/config/env';
import { checkBeforeOpening } from '../../lib/config/start-checks';
import { createLogger } from '../../lib/log';
import { forwardedClientAddress } from '../../lib/server/client-address';
import { provideConsoleWiring } from '../../console/server/data/console-wiring';
import { startConsoleSide, type ConsoleSide } from './console-side';

export const PAYMENT_API_BASE_URL_REQUIRED =
  'PAYMENT_API_BASE_URL must be set: `next start` serves the console alone, in front of a payment API started\n' +
  'elsewhere (`npm run start:api`). To run the API and the console together, start the app with `npm start`.';

export async function startConsoleInNext(): Promise<ConsoleSide> {
  const settings = env();
  if (!settings.PAYMENT_API_BASE_URL) throw new ConfigError(PAYMENT_API_BASE_URL_REQUIRED);
  // Before the store is opened: a refused start writes nothing.
  checkBeforeOpening(settings, { console: true });
  const log = createLogger({ level: settings.LOG_LEVEL });
  const side = await startConsoleSide(settings, log, {
    // Next's server sets X-Forwarded-For (to the socket's peer when the request has none); proxies in front append to it.
    clientAddress: (headers) => forwardedClientAddress(headers.get('x-forwarded-for'), settings.TRUSTED_PROXY_HOPS),
  });
  provideConsoleWiring(side.wiring);
  return side;
}
