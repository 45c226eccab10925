// Next calls register() once when its server starts, before the first request. Under `npm start` the
// start script composed the process before preparing Next (scripts/start.ts: the API runtime, the
// console's wiring, the hosted checkout), and there is nothing to build here. Under `next start` (or
// the standalone server) nothing did: the console is composed here, alone, in front of the payment API
// at PAYMENT_API_BASE_URL (scripts/roots/console-in-next.ts). Either way the console's cookie secret is
// resolved now (generated beside the embedded store, or required with a database URL), so a start
// that cannot serve the console fails at once and says why.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { consoleWired } = await import('./console/server/data/console-wiring');
    const { sessionSecrets } = await import('./console/server/session/session-secrets');
    try {
      if (!consoleWired()) {
        const { startConsoleInNext } = await import('./scripts/roots/console-in-next');
        await startConsoleInNext();
      }
      sessionSecrets();
    } catch (error) {
      process.stderr.write(`\nThe console could not start:\n${(error as Error)?.message ?? error}\n\n`);
      process.exit(1);
    }
  }
}
