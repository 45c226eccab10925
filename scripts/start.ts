// npm start (and npm run dev with --dev): one node:http server answers the payment API, health and
// metrics itself and hands every other request (the console, the hosted checkout) to Next.
// `npm start` builds first only when a source changed since the last build.
import path from 'node:path';
import next from 'next';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { getRuntime } from '../lib/server/runtime';
import { checkBeforeOpening } from '../lib/server/start-checks';
import { ensureNextBuild } from './next-build';
import { serve } from './serve';

async function main() {
  const dev = process.argv.includes('--dev');
  (process.env as Record<string, string | undefined>).NODE_ENV ??= dev ? 'development' : 'production';
  // Settings first: a start that will be refused neither builds nor opens the database.
  checkBeforeOpening(env(), { console: true });
  if (!dev) await ensureNextBuild(process.env.NEXT_DIST_DIR || '.next');
  // The runtime lives on globalThis: Next's own bundles (instrumentation, route handlers) find this
  // one. Next's instrumentation checks the console's session secret when the app is prepared.
  const runtime = await getRuntime();
  const settings = env();
  const app = next({ dev, dir: path.resolve(__dirname, '..'), hostname: settings.HOST ?? 'localhost', port: settings.PORT });
  await app.prepare();
  await serve(runtime, app.getRequestHandler());
}

main().catch((error) => {
  const known = error instanceof ConfigError || error instanceof DataDirLockedError;
  process.stderr.write(`\nThe payment app could not start:\n${known ? error.message : error?.stack ?? error}\n\n`);
  process.exit(1);
});
