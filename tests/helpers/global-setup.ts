// Once per vitest run: build Next for the suites that run against its mount (PostgreSQL only).
import { postgresUrl } from './databases';
import { ensureNextBuild } from './next-build';

export async function setup() {
  if (postgresUrl) await ensureNextBuild();
}
