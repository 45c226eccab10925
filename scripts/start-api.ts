// npm run start:api: the payment API on node:http, without Next, on the same core and database.
import { ConfigError, env } from '../lib/config/env';
import { createNodeServer, mountAtApiPath } from '../lib/server/node-http';
import { startRuntime } from '../lib/server/runtime';

async function main() {
  const settings = env();
  const runtime = await startRuntime(settings);
  const server = createNodeServer(mountAtApiPath(runtime.core));
  server.keepAliveTimeout = 65_000;
  server.listen(settings.PORT, () => runtime.log.info({ port: settings.PORT }, 'standalone payment API listening on /v1/index.php'));
  const shutdown = () => server.close(() => void runtime.stop().then(() => process.exit(0)));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`The payment API could not start:\n${error instanceof ConfigError ? error.message : error?.stack ?? error}\n`);
  process.exit(1);
});
