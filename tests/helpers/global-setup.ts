// Once per vitest run: the migrated embedded database every test starts from, and Next's build
// for the suites that run against its mount (PostgreSQL only).
import { postgresUrl } from '../../testing/databases';
import { ensureNextBuild } from '../../testing/next-build';
import { makePgliteTemplate } from '../../testing/pglite-template';

export async function setup() {
  await makePgliteTemplate();
  if (postgresUrl) await ensureNextBuild();
}
