// After a split run on PostgreSQL: the API's schema of this run goes (playwright.config.ts, apiDatabaseUrl).
import pg from 'pg';

export default async function dropApiSchema() {
  const url = process.env.E2E_API_DATABASE_URL;
  const schema = url && /search_path=(e2e_[0-9a-f]+)/.exec(decodeURIComponent(url))?.[1];
  if (!url || !schema) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The API server may still hold a connection: wait for its locks a little, never for ever.
    await client.query(`SET lock_timeout = '10s'`);
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } catch (error) {
    process.stderr.write(`could not drop the e2e schema ${schema}: ${String(error)}\n`);
  } finally {
    await client.end();
  }
}
