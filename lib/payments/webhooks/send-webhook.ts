import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_RESPONSE_EXCERPT_BYTES } from '../../contract';
import { ForbiddenAddressError, guardedLookup, refusalOf } from './address-guard';

export interface WebhookAttempt {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Keep-alive agents whose new connections pass the address guard (webhookAgents). */
  agents: WebhookAgents;
  /** Aborts the attempt (the process is stopping): it ends as an error, `aborted`. */
  signal?: AbortSignal;
}

/** What one POST came to: an HTTP status (any), or an error before one arrived. */
export type AttemptResult =
  { kind: 'response'; status: number; body: string; retryAfterSeconds?: number } | { kind: 'error'; error: string };

export interface WebhookAgents {
  http: http.Agent;
  https: https.Agent;
  allowPrivateNetworks: boolean;
}

/**
 * Connections to receivers are kept alive and reused (a TLS handshake per event
 * would cost more than the event); every new one is resolved and checked by the
 * address guard as it connects. At most `perHost` connections per receiver.
 */
export function webhookAgents(allowPrivateNetworks: boolean, perHost: number): WebhookAgents {
  const options = { keepAlive: true, maxSockets: perHost, maxFreeSockets: perHost, lookup: guardedLookup(allowPrivateNetworks) };
  return { http: new http.Agent(options), https: new https.Agent(options), allowPrivateNetworks };
}

/**
 * One delivery attempt: POST, no redirects followed (a 3xx is a failed attempt),
 * the whole exchange bounded by `timeoutMs`, at most 1 KiB of the answer kept.
 * Never throws: every failure is a result to record.
 */
export function sendWebhook(attempt: WebhookAttempt): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const url = new URL(attempt.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is not looked up, so it is judged here.
    const literalRefusal = net.isIP(host) ? refusalOf(host, attempt.agents.allowPrivateNetworks) : undefined;
    if (literalRefusal) return resolve({ kind: 'error', error: `refused: ${literalRefusal}` });

    let settled = false;
    /** `destroy`: the connection cannot be reused (no answer, or an answer not read to its end). */
    const finish = (result: AttemptResult, destroy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      attempt.signal?.removeEventListener('abort', onAbort);
      if (destroy) req.destroy();
      resolve(result);
    };
    const https_ = url.protocol === 'https:';
    const req = (https_ ? https : http).request(url, {
      method: 'POST',
      headers: { ...attempt.headers, 'content-length': Buffer.byteLength(attempt.body).toString() },
      agent: https_ ? attempt.agents.https : attempt.agents.http,
    });
    const timer = setTimeout(
      () => finish({ kind: 'error', error: `timeout: no answer within ${attempt.timeoutMs} ms` }, true),
      attempt.timeoutMs,
    );
    const onAbort = () => finish({ kind: 'error', error: 'aborted' }, true);
    attempt.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error instanceof ForbiddenAddressError ? `refused: ${error.message}` : `${error.code ?? 'error'}: ${error.message}`;
      finish({ kind: 'error', error: reason }, true);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (destroy: boolean) => {
        // PostgreSQL text holds no NUL characters.
        const body = Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
        finish({ kind: 'response', status: res.statusCode ?? 0, body, retryAfterSeconds: retryAfter(res.headers['retry-after']) }, destroy);
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > WEBHOOK_RESPONSE_EXCERPT_BYTES) done(true);
      });
      res.on('end', () => done(false));
      res.on('error', () => done(true));
    });
    req.end(attempt.body);
  });
}

/** Retry-After in seconds: a number of seconds or an HTTP date. */
function retryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}
