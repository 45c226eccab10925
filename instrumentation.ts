// Next calls register() once when the server starts. The process was composed before Next was
// prepared (scripts/start.ts: the API runtime, the console's context, the hosted checkout): here
// Next checks that it was, so that `next start` on its own fails at once and says why, and makes
// the console's cookie secret (generated beside the embedded database, or required with DATABASE_URL).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { consoleWired } = await import('./console/server/data/console-wiring');
    const { sessionSecrets } = await import('./console/server/session/session-secrets');
    try {
      if (!consoleWired())
        throw new Error('Start it with `npm start` or `npm run dev` (scripts/start.ts), which wires the console and the payment API.');
      sessionSecrets();
    } catch (error) {
      process.stderr.write(`\nThe payment app could not start:\n${(error as Error)?.message ?? error}\n\n`);
      process.exit(1);
    }
  }
}
