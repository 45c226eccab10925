import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite has no cross-process lock: two processes on one folder silently lose
 * writes. This takes an exclusive lock file holding the owner's pid. A lock left
 * by a process that died (kill -9) is taken over at once, which the crash tests
 * rely on; a live owner makes the second opener fail with a clear message.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}. ` +
        'Stop that process first, or use DATABASE_URL for several processes on one database.',
    );
  }
}

export interface DirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dir: string): DirLock {
  // The folder holds every merchant's data: owner only, whoever creates it (server, CLI, tests).
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, 'app.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(safeRead(file), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(dir, owner);
      }
      // Stale lock (owner dead, or the file is empty from a crash mid-write).
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
