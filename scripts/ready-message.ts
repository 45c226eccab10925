// What a start prints once it listens, as its last lines, for the person at the terminal (not the log):
// where the console and the API are, and on the first start of an empty database the demo merchant's
// secret key, which exists in clear only now (it is stored hashed).
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import type { Logger } from '../lib/log';
import { listeningOrigin } from '../lib/server/allowed-host';

export interface DemoMerchant {
  name: string;
  available: number;
  currency: string;
  secretKey: string;
}

export interface ReadyFacts {
  /** The address the server listens on, as a browser on this machine opens it. */
  origin: string;
  /** Absent for `npm run start:api`, which serves no console. */
  console: boolean;
  /** Where the console's API calls go when it is not this process (PAYMENT_API_BASE_URL). */
  apiElsewhere?: string;
  /** Only on the first start of an empty payment database. */
  demo?: DemoMerchant;
}

export function listeningAt(server: Server, host: string): string {
  return listeningOrigin({ HOST: host, PORT: (server.address() as AddressInfo).port });
}

/** The demo merchant's block: the one place a secret key is printed (tests/helpers/log-scan.ts cuts it out). */
export function demoKeyLines(demo: DemoMerchant): string[] {
  return [
    `  Demo merchant "${demo.name}" created with ${demo.available.toLocaleString('en-US')} ${demo.currency}.`,
    `  Its secret key (shown only now; sign in to the console with it, or send it as the API's Bearer key):`,
    '',
    `    ${demo.secretKey}`,
  ];
}

export function readyMessage(facts: ReadyFacts): string {
  const lines = ['', `  Ready.`];
  if (facts.console) lines.push(`  Console:      ${facts.origin}/`);
  if (facts.apiElsewhere) lines.push(`  Payment API:  ${facts.apiElsewhere} (this process serves the console only)`);
  else lines.push(`  Payment API:  POST ${facts.origin}/v1/index.php`);
  lines.push('');
  if (facts.demo) lines.push(...demoKeyLines(facts.demo));
  else if (!facts.apiElsewhere)
    lines.push(
      '  Sign in with a secret key: the demo key was shown on the first start. Lost it?',
      '  `npm run merchant -- list`, then `npm run merchant -- roll-key --id acct_…` prints a new one.',
    );
  else lines.push('  Sign in with a secret key issued by that payment API.');
  return lines.join('\n') + '\n\n';
}

/**
 * Prints the message after every log line written so far: pino writes asynchronously to the same
 * descriptor, so the message goes through the log's own stream, in order, to be the last lines.
 */
export function printReady(log: Logger, facts: ReadyFacts): void {
  const stream = (log as unknown as Record<symbol, { write(text: string): unknown } | undefined>)[pino.symbols.streamSym];
  (stream ?? process.stdout).write(readyMessage(facts));
}
