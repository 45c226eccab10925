import 'server-only';
import type { Logger } from '../../../lib/log';
import { createPaymentClient, type PaymentClient } from '../upstream/payment-client';
import { consoleWiring, type ConsoleWiring } from './console-wiring';
import { createSessionStore, type SessionStore } from '../session/session-store';

/**
 * The console's data access layer (the Next DAL pattern): everything a console page or route
 * reaches data through. The session store, the payment client (the SDK with the key added per
 * merchant) and the logger, built once from what the process's root wired (console-wiring.ts): the
 * start script's, or Next's instrumentation when `next start` runs the console alone.
 */
export interface ConsoleContext {
  sessions: SessionStore;
  payments: PaymentClient;
  log: Logger;
  /** The browser's address, as the server in front of the routes says it (never a header the browser chose). */
  clientAddress(headers: Headers): string;
}

const built = new WeakMap<ConsoleWiring, ConsoleContext>();

export function consoleContext(): ConsoleContext {
  const wiring = consoleWiring();
  let context = built.get(wiring);
  if (!context) {
    const upstreamLog = wiring.log.child({ component: 'upstream' });
    context = {
      sessions: createSessionStore(wiring.store),
      payments: createPaymentClient({
        baseUrl: wiring.api.baseUrl,
        timeoutMs: wiring.api.timeoutMs,
        fetch: wiring.api.fetch,
        onRetry: (info) => upstreamLog.warn(info, 'payment API call failed; retrying with the same idempotency key'),
      }),
      log: wiring.log,
      clientAddress: wiring.clientAddress,
    };
    built.set(wiring, context);
  }
  return context;
}
