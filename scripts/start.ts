// npm start (and npm run dev with --dev): the composition root of the whole app. It builds the API
// runtime (unless PAYMENT_API_BASE_URL points elsewhere) and the console's context, hands the console
// the in-process core and Next the parts it reads (the console's wiring, the hosted checkout), then
// serves: one node:http server answers the payment API, health and metrics itself and hands every
// other request (the console, the hosted checkout) to Next.
// `npm start` builds first only when a source changed since the last build.
// package.json runs it as `exec node --import tsx`: npm's shell becomes this process, so a stop signal
// npm passes on reaches it and npm exits when it does. tsx's own command would sit in between, send
// the signal once more and SIGKILL a process still busy answering 60 ms later: connections reset.
import path from 'node:path';
import next from 'next';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { createLogger } from '../lib/log';
import { provideHostedCheckout } from '../lib/server/hosted-checkout';
import { checkBeforeOpening } from '../lib/config/start-checks';
import { provideConsoleWiring } from '../console/server/data/console-wiring';
import { ensureNextBuild } from './next-build';
import { demoKeyLines, listeningAt, printReady, type DemoMerchant } from './ready-message';
import { composeProcess } from './roots/compose';
import { serve } from './serve';

/** The demo merchant's key, once seeded and until printed: a start that fails after seeding still shows it. */
let unshownDemo: DemoMerchant | undefined;

async function main() {
  const dev = process.argv.includes('--dev');
  (process.env as Record<string, string | undefined>).NODE_ENV ??= dev ? 'development' : 'production';
  const settings = env();
  // Settings first: a start that will be refused neither builds nor opens the database.
  checkBeforeOpening(settings, { console: true });
  if (!dev) await ensureNextBuild(process.env.NEXT_DIST_DIR || '.next');
  const composed = await composeProcess(settings, createLogger({ level: settings.LOG_LEVEL }));
  unshownDemo = composed.api?.demo;
  // Next's bundles (pages, route handlers) read these two through their own modules, on globalThis.
  provideConsoleWiring(composed.console.wiring);
  if (composed.api) provideHostedCheckout(composed.api.hostedCheckout);
  const app = next({ dev, dir: path.resolve(__dirname, '..'), hostname: settings.HOST ?? 'localhost', port: settings.PORT });
  await app.prepare();
  const log = composed.console.wiring.log;
  const server = await serve(composed.served, { next: app.getRequestHandler(), log, admin: Boolean(composed.api) });
  const origin = listeningAt(server.server, settings.HOST);
  printReady(log, { origin, console: true, apiElsewhere: settings.PAYMENT_API_BASE_URL, demo: unshownDemo });
  unshownDemo = undefined;
}

main().catch((error) => {
  const known = error instanceof ConfigError || error instanceof DataDirLockedError;
  process.stderr.write(`\nThe payment app could not start:\n${known ? error.message : (error?.stack ?? error)}\n\n`);
  if (unshownDemo) process.stdout.write(`${demoKeyLines(unshownDemo).join('\n')}\n\n`);
  process.exit(1);
});
