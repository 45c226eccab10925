// CPU time of the server under test and of the PostgreSQL backends that serve it, from /proc (Linux).
// Backends are found by application_name, so other work on the same database server is not counted.
import fs from 'node:fs';
import pg from 'pg';

const TICK_MS = 1000 / 100; // USER_HZ: 100 on Linux

/** user + system milliseconds of one process so far; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces); utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

export interface CpuReading {
  serverMs: number;
  /** Per backend pid. */
  backends: Map<number, number>;
}

export interface CpuSpent {
  serverMs: number;
  databaseMs: number;
}

/**
 * Reads the CPU of `serverPid` and of every backend connected with `applicationName`.
 * A backend that connects during the window counts only from its first reading: the
 * window should start once the server's pool is warm.
 */
export async function cpuReader(databaseUrl: string, applicationName: string) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const backendPids = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows.map(
      (r) => r.pid,
    );
  return {
    async read(serverPid: number): Promise<CpuReading> {
      const pids = await backendPids();
      return { serverMs: processCpuMs(serverPid), backends: new Map(pids.map((pid) => [pid, processCpuMs(pid)])) };
    },
    close: () => admin.end(),
  };
}

/** CPU spent between two readings (backends present in both). */
export function cpuSpent(before: CpuReading, after: CpuReading): CpuSpent {
  let databaseMs = 0;
  for (const [pid, ms] of after.backends) {
    const was = before.backends.get(pid);
    if (was !== undefined && ms >= was) databaseMs += ms - was;
  }
  return { serverMs: after.serverMs - before.serverMs, databaseMs };
}
