// What ran beside a timed stretch of reads: the machine's CPU (all of it, from /proc/stat), the server's
// background jobs (their time, from its /metrics), webhook attempts, and PostgreSQL's checkpoint writes.
// Reads are timed one at a time, so they keep at most about one core busy; more than that is other work,
// and a read that grew while it ran is shown beside what ran.
import fs from 'node:fs';
import pg from 'pg';

export interface Activity {
  at: number;
  /** Non-idle jiffies of every core (USER_HZ ticks). */
  busyTicks: number;
  /** Seconds each background job ran, from payments_job_duration_seconds_sum. */
  jobSeconds: Record<string, number>;
  webhookAttempts: number;
  /** Buffers written by checkpoints, the background writer and backends (pg_stat_bgwriter). */
  buffersWritten: number;
}

/** What ran between two snapshots: cores busy on average, job seconds (largest first), attempts, MB written. */
export interface ActivitySpent {
  seconds: number;
  coresBusy: number;
  jobSeconds: Record<string, number>;
  webhookAttempts: number;
  mbWritten: number;
}

function busyTicks(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  return cpu.slice(0, 8).reduce((s, x, i) => (i === 3 || i === 4 ? s : s + x), 0);
}

function parseMetrics(text: string) {
  const jobSeconds: Record<string, number> = {};
  let webhookAttempts = 0;
  for (const line of text.split('\n')) {
    const job = /^payments_job_duration_seconds_sum\{job="([^"]+)"\} (\S+)$/.exec(line);
    if (job) jobSeconds[job[1]!] = Number(job[2]);
    const attempts = /^payments_webhook_attempts_total\{[^}]*\} (\S+)$/.exec(line);
    if (attempts) webhookAttempts += Number(attempts[1]);
  }
  return { jobSeconds, webhookAttempts };
}

export async function activitySnapshot(base: string, metricsToken: string, databaseUrl: string): Promise<Activity> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [row] = (
      await client.query<{ n: string }>('SELECT buffers_checkpoint + buffers_clean + buffers_backend AS n FROM pg_stat_bgwriter')
    ).rows;
    return { at: performance.now(), busyTicks: busyTicks(), ...parseMetrics(await res.text()), buffersWritten: Number(row!.n) };
  } finally {
    await client.end();
  }
}

export function activitySpent(before: Activity, after: Activity): ActivitySpent {
  const seconds = (after.at - before.at) / 1000;
  const jobs = Object.entries(after.jobSeconds)
    .map(([job, s]) => [job, Math.round((s - (before.jobSeconds[job] ?? 0)) * 10) / 10] as const)
    .filter(([, s]) => s >= 0.1)
    .sort((a, b) => b[1] - a[1]);
  return {
    seconds: Math.round(seconds),
    // USER_HZ is 100 on Linux.
    coresBusy: Math.round(((after.busyTicks - before.busyTicks) / 100 / seconds) * 100) / 100,
    jobSeconds: Object.fromEntries(jobs),
    webhookAttempts: after.webhookAttempts - before.webhookAttempts,
    mbWritten: Math.round(((after.buffersWritten - before.buffersWritten) * 8192) / 1e6),
  };
}
