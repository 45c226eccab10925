// npm run start:api: the payment API, health and metrics on node:http, without Next (no console, no
// hosted checkout page), on the same core and database. Its composition root is the API runtime alone.
// Run as `exec node --import tsx`, for the signals' sake (scripts/start.ts says why).
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { createLogger } from '../lib/log';
import { composeApiProcess } from './roots/compose';
import { listeningAt, printReady } from './ready-message';
import { serve } from './serve';

const settings = env();
const log = createLogger({ level: settings.LOG_LEVEL });
composeApiProcess(settings, log)
  .then(async (api) => {
    const server = await serve(api, { log, admin: true });
    printReady(log, { origin: listeningAt(server.server, settings.HOST), console: false, demo: api.demo });
  })
  .catch((error) => {
    const known = error instanceof ConfigError || error instanceof DataDirLockedError;
    process.stderr.write(`The payment API could not start:\n${known ? error.message : (error?.stack ?? error)}\n`);
    process.exit(1);
  });
