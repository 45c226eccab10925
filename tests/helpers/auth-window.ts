/**
 * Failed authentications are counted per clock minute (lib/db/auth-failures.ts). A test that
 * makes N failures and expects the N+1st to be refused would see the count restart if a minute
 * boundary fell between them; this waits, when the current minute is nearly over, for the next.
 */
export async function freshAuthWindow(neededSeconds = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
