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
  allowPrivateNetworks: boolean;
}

/** What one POST came to: an HTTP status (any), or an error before one arrived. */
export type AttemptResult =
  | { kind: 'response'; status: number; body: string; retryAfterSeconds?: number }
  | { kind: 'error'; error: string };

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
    const literalRefusal = net.isIP(host) ? refusalOf(host, attempt.allowPrivateNetworks) : undefined;
    if (literalRefusal) return resolve({ kind: 'error', error: `refused: ${literalRefusal}` });

    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...attempt.headers, 'content-length': Buffer.byteLength(attempt.body).toString() },
      lookup: guardedLookup(attempt.allowPrivateNetworks),
      agent: false,
    });
    const timer = setTimeout(() => finish({ kind: 'error', error: `timeout: no answer within ${attempt.timeoutMs} ms` }), attempt.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error instanceof ForbiddenAddressError ? `refused: ${error.message}` : `${error.code ?? 'error'}: ${error.message}`;
      finish({ kind: 'error', error: reason });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        // PostgreSQL text holds no NUL characters.
        const body = Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
        finish({ kind: 'response', status: res.statusCode ?? 0, body, retryAfterSeconds: retryAfter(res.headers['retry-after']) });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= WEBHOOK_RESPONSE_EXCERPT_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
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
