// What a results file says about where its figures come from: the machine (cores, CPU model, memory, Node,
// PostgreSQL) and the commit measured, so that a figure is read against its own run and nothing else.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';

export interface BenchMachine {
  cpus: number;
  cpu?: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** The PostgreSQL server's version, when the run had one. */
  postgres?: string;
  /** The 1-minute load average when the run began: a busy machine moves absolute figures (ratios less). */
  loadAverage?: number;
}

export interface RunProvenance {
  date: string;
  /** The short commit id, with " + uncommitted changes" when the work tree differed from it. */
  commit: string;
  machine: BenchMachine;
}

function commitMeasured(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const id = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${id} + uncommitted changes` : id;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function postgresVersion(databaseUrl: string | undefined): Promise<string | undefined> {
  if (!databaseUrl) return undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version;
  } finally {
    await client.end();
  }
}

export async function runProvenance(databaseUrl: string | undefined): Promise<RunProvenance> {
  return {
    date: new Date().toISOString(),
    commit: commitMeasured(),
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      postgres: await postgresVersion(databaseUrl),
      loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
    },
  };
}
