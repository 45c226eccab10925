import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { JsonAnswer } from './json-answer';

/** What the receiver does with a request: answer a status (with headers), or never answer. */
export type Behaviour = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; type: string; data: { object: Record<string, JsonAnswer> } } & Record<string, JsonAnswer>;
  /** Verified with `standardwebhooks` against the secret registered for the path (false when none verifies). */
  verified: boolean;
}

/**
 * A real HTTP webhook receiver for the tests: every request is recorded and its
 * signature checked with the `standardwebhooks` package, the reference verifier.
 * Each path answers from its own script of behaviours (the last one repeats).
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, Behaviour[]>();
  const secrets = new Map<string, string[]>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      const verified = (secrets.get(path) ?? []).some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      received.push({
        path,
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        event: JSON.parse(body),
        verified,
      });
      const script = scripts.get(path) ?? [{ status: 200 }];
      const behaviour = script.length > 1 ? script.shift()! : script[0]!;
      if (behaviour === 'hang') return void hanging.add(res);
      const answer = () =>
        res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers }).end(`answer ${behaviour.status}`);
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** The URL of a path, answering `script` in turn; `secret` verifies what arrives there. */
    endpoint(path: string, script: Behaviour[] = [{ status: 200 }]) {
      scripts.set(path, [...script]);
      return `${base}${path}`;
    },
    trust(path: string, secret: string) {
      secrets.set(path, [...(secrets.get(path) ?? []), secret]);
    },
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
