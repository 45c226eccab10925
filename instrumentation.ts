// Next calls register() once when the server starts: open the database, seed the
// demo merchant (printing its key) and start the background jobs before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startOrExit } = await import('./lib/server/start-or-exit');
    await startOrExit();
  }
}
