// npm run start:api: the payment API, health and metrics on node:http, without Next, on the same core and database.
import { ConfigError, env } from '../lib/config/env';
import { startRuntime } from '../lib/server/runtime';
import { serve } from './serve';

startRuntime(env())
  .then((runtime) => serve(runtime))
  .catch((error) => {
    process.stderr.write(`The payment API could not start:\n${error instanceof ConfigError ? error.message : error?.stack ?? error}\n`);
    process.exit(1);
  });
