import type { Env } from '../../../lib/config/env';
import type { Db } from '../../../lib/db/types';
import type { Logger } from '../../../lib/log';

/**
 * What the start script (scripts/start.ts, the composition root) hands the console: its store
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
}

const SLOT = Symbol.for('merchant-payments.console-wiring');
type WithSlot = typeof globalThis & { [SLOT]?: ConsoleWiring };

/** Called once by the start script, before Next is prepared. On globalThis: Next loads this module in several bundles. */
export function provideConsoleWiring(wiring: ConsoleWiring): void {
  (globalThis as WithSlot)[SLOT] = wiring;
}

export function consoleWiring(): ConsoleWiring {
  const wiring = (globalThis as WithSlot)[SLOT];
  if (!wiring)
    throw new Error('The console was not wired: start the app with `npm start` or `npm run dev` (scripts/start.ts), not `next start`.');
  return wiring;
}

/** Whether a start script wired the console (Next's instrumentation checks it at start). */
export const consoleWired = () => Boolean((globalThis as WithSlot)[SLOT]);
