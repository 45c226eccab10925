import type { Env } from '../../../lib/config/env';
import type { Db } from '../../../lib/db/types';
import type { Logger } from '../../../lib/log';

/**
 * What the process's composition root hands the console (scripts/roots/console-side.ts, run by
 * `npm start`, or by Next's instrumentation under `next start`): its store
 * (session records and sign-in counts; the payment database in one process, a store of its own
 * when the API is elsewhere), the way to the payment API (a fetch into this process's core, or
 * none for real HTTP to `baseUrl`) and its logger. The console's data access layer
 * (data-access.ts) builds its context from it inside Next's server bundles, where the
 * modules that carry a key may load. No key here, hence no 'server-only': the start script imports it.
 */
export interface ConsoleWiring {
  store: Db;
  api: { baseUrl: string; fetch?: typeof fetch; timeoutMs: number };
  log: Logger;
  settings: Env;
  /** The browser's address for the sign-in limit, as the server in front of the routes knows it (npm start's app server, or Next's). */
  clientAddress(headers: Headers): string;
}

const SLOT = Symbol.for('merchant-payments.console-wiring');
type WithSlot = typeof globalThis & { [SLOT]?: ConsoleWiring };

/**
 * Called once, before the first request: by the start script before Next is prepared, or by Next's
 * instrumentation when `next start` runs the console alone. On globalThis: Next loads this module in several bundles.
 */
export function provideConsoleWiring(wiring: ConsoleWiring): void {
  (globalThis as WithSlot)[SLOT] = wiring;
}

export function consoleWiring(): ConsoleWiring {
  const wiring = (globalThis as WithSlot)[SLOT];
  if (!wiring)
    throw new Error(
      'The console was not wired: start it with `npm start`, or with `next start` and PAYMENT_API_BASE_URL (instrumentation.ts).',
    );
  return wiring;
}

/** Whether a start script wired the console (otherwise Next's instrumentation wires it). */
export const consoleWired = () => Boolean((globalThis as WithSlot)[SLOT]);
