import type { Db } from './types';

/** Whether PostgreSQL's autovacuum daemon runs for this database: never on PGlite; on a server, its setting. */
export async function autovacuumDaemonRuns(db: Db): Promise<boolean> {
  return db.kind === 'postgres' && (await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`))[0]!.on;
}

/**
 * The daemon's work where no daemon runs (PGlite, or a server with autovacuum off): `command` on each table `due`
 * names, `SKIP_LOCKED` (a table another instance is already working on waits for the next run). Where the daemon
 * runs, nothing: asked once, then remembered. Returns the tables the command ran on.
 */
export function whereNoDaemon(db: Db, command: 'ANALYZE' | 'VACUUM', due: () => Promise<string[]>) {
  let daemon: boolean | undefined;
  return async (): Promise<string[]> => {
    daemon ??= await autovacuumDaemonRuns(db);
    if (daemon) return [];
    const tables = await due();
    for (const t of tables) await db.exec(`${command} (SKIP_LOCKED) "${t.replace(/"/g, '""')}"`);
    return tables;
  };
}
