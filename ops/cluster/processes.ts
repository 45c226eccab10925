import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** The OS user that runs etcd, Patroni, PostgreSQL and HAProxy: PostgreSQL refuses root. */
export function runAsUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid <= 0)
    throw new Error('running as root, and no postgres user to run the cluster as');
  return { uid, gid };
}

/** Gives `dir` and everything under it to the cluster's user. */
export function chownTree(dir: string, user = runAsUser()) {
  if (!user) return;
  const walk = (p: string) => {
    fs.chownSync(p, user.uid, user.gid);
    if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(`${p}/${e}`);
  };
  walk(dir);
}

export interface Started {
  name: string;
  child: ChildProcess;
  pid: number;
}

/**
 * Starts `command` as the cluster's user, in a process group of its own (so that a Ctrl-C
 * at the terminal reaches only the CLI, which then stops things in order), its output
 * appended to `logFile`.
 */
export function startProcess(name: string, command: string, args: string[], logFile: string, cwd: string): Started {
  const out = fs.openSync(logFile, 'a');
  const user = runAsUser();
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, HOME: cwd, USER: 'postgres', LC_ALL: 'C.UTF-8', PGPASSFILE: undefined, PGDATA: undefined },
    ...(user ?? {}),
  });
  fs.closeSync(out);
  if (!child.pid) throw new Error(`${name} did not start (${command})`);
  return { name, child, pid: child.pid };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0: read its state.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

export function signal(pid: number, sig: NodeJS.Signals) {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

export async function waitGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** The postmaster's pid, from the data folder's postmaster.pid (undefined when it is not running). */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The direct children of `pid` (a postmaster's backends and helpers), from /proc. */
export function childrenOf(pid: number): number[] {
  if (os.platform() !== 'linux') return [];
  const kids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return kids;
}
