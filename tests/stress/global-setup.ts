import fs from 'node:fs';
import path from 'node:path';
import { findLeaks } from '../helpers/log-scan';
import { makePgliteTemplate } from '../../testing/pglite-template';
import { SERVER_LOG_DIR } from '../../testing/server-process';
import { FIGURES_FILE, readFigures, SIZE } from './figures';
import { ACCOUNT_NUMBERS } from './accounts';

/** Starts each run clean; at the end prints the figures and scans every server's log for secrets. */
export async function setup() {
  fs.rmSync(FIGURES_FILE, { force: true });
  fs.rmSync(SERVER_LOG_DIR, { recursive: true, force: true });
  await makePgliteTemplate();
}

export function teardown() {
  const lines = [`\nStress summary (${SIZE} size, ${new Date().toISOString()}):`];
  for (const { name, ...figures } of readFigures()) {
    lines.push(`  ${name}`);
    lines.push(
      '    ' +
        Object.entries(figures)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
    );
  }
  const logs = fs.existsSync(SERVER_LOG_DIR) ? fs.readdirSync(SERVER_LOG_DIR) : [];
  let bytes = 0;
  const leaks = logs.flatMap((f) => {
    const text = fs.readFileSync(path.join(SERVER_LOG_DIR, f), 'utf8');
    bytes += text.length;
    return findLeaks(
      text,
      ACCOUNT_NUMBERS.map((n) => ['full account number', n] as [string, string]),
    );
  });
  lines.push(`  server logs: ${logs.length} processes, ${Math.round(bytes / 1024)} KiB scanned, secrets found: ${leaks.length}`);
  for (const leak of leaks.slice(0, 5)) lines.push(`    LEAK (${leak.what}): ${leak.line.slice(0, 200)}`);
  process.stdout.write(lines.join('\n') + '\n');
  if (leaks.length > 0) process.exitCode = 1;
}
