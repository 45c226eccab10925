import { performance } from 'node:perf_hooks';
import type { Db } from '../../db/types';
import type { Logger } from '../../log';
import { eventObject } from './event-object';
import { CLAIM_SQL, recordAttempts, type Claimed, type Outcome } from './delivery-store';
import type { SecretBox } from '../pipeline/core-settings';
import { sendWebhook, webhookAgents } from './send-webhook';
import { webhookHeaders } from './signing';

export interface DeliverySettings {
  box: SecretBox;
  timeoutMs: number;
  retryDelaysSeconds: readonly number[];
  allowPrivateNetworks: boolean;
  /** Attempts in flight in this process, and per endpoint (so a slow endpoint cannot take every slot). */
  concurrency?: number;
  perEndpoint?: number;
  /** How often an idle process looks for due deliveries. */
  pollMs?: number;
  /**
   * API requests in flight in this process right now. While there are
   * `yieldAtApiRequests` or more (the process is saturated: under light load they
   * rarely overlap), deliveries yield to them: one attempt in flight at a time.
   * They catch up when the load drops; the backlog metric shows the lag.
   */
  apiInFlight?: () => number;
  yieldAtApiRequests?: number;
  onAttempt?: (outcome: Outcome, ms: number) => void;
}

/**
 * Claims due deliveries and attempts them (delivery-store.ts has the SQL: a
 * lease claimed with FOR UPDATE SKIP LOCKED, so several instances share the work
 * and a delivery whose process died is attempted again once its lease ends).
 * Results are recorded in batches, one statement for all that finished together.
 */
export function startWebhookDelivery(db: Db, log: Logger, settings: DeliverySettings) {
  const { concurrency = 32, perEndpoint = 8, pollMs = 500, apiInFlight = () => 0, yieldAtApiRequests = 2 } = settings;
  const leaseSeconds = settings.timeoutMs / 1000 + 5;
  const agents = webhookAgents(settings.allowPrivateNetworks, perEndpoint);
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const finished: Array<{ row: Claimed; result: Awaited<ReturnType<typeof sendWebhook>>; started: number }> = [];
  const stopping = new AbortController();
  let active = 0;
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let flushing: Promise<void> | undefined;
  let failing = false;
  let busy = false;

  async function poll() {
    if (stopping.signal.aborted || polling) return;
    polling = true;
    try {
      busy = apiInFlight() >= yieldAtApiRequests;
      const free = (busy ? 1 : concurrency) - active;
      if (free > 0) {
        const rows = await db.query<Claimed>(CLAIM_SQL, [free, [...inFlight.keys()], [...inFlight.values()], perEndpoint, leaseSeconds]);
        for (const row of rows) track(row);
      }
      if (failing) log.info('webhook delivery recovered');
      failing = false;
    } catch (err) {
      if (!failing && !stopping.signal.aborted) log.error({ err }, 'webhook delivery could not claim work; retrying');
      failing = true;
    } finally {
      polling = false;
      schedule(pollMs);
    }
  }

  function schedule(ms: number) {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), ms);
    timer.unref();
  }

  function track(row: Claimed) {
    active++;
    inFlight.set(row.endpoint_id, (inFlight.get(row.endpoint_id) ?? 0) + 1);
    const started = performance.now();
    const attempt = send(row)
      .then((result) => {
        // Stopping: nothing is recorded; the lease runs out and the delivery is attempted again.
        if (stopping.signal.aborted) return;
        finished.push({ row, result, started });
        flushing ??= flush();
      })
      .catch((err) => log.error({ err, delivery: row.id }, 'webhook attempt failed before sending; retried when its lease ends'))
      .finally(() => {
        active--;
        const n = inFlight.get(row.endpoint_id)! - 1;
        if (n === 0) inFlight.delete(row.endpoint_id);
        else inFlight.set(row.endpoint_id, n);
        running.delete(attempt);
        // A slot came free: look for more work soon (a few ms, so that slots freed together share one claim).
        schedule(busy ? pollMs : 5);
      });
    running.add(attempt);
  }

  function send(row: Claimed) {
    const body = JSON.stringify(eventObject({ id: row.event_id, type: row.type, created_at: row.event_created_at, data: row.data }));
    const secrets = [row.secret_sealed, row.previous_secret_sealed].filter((s): s is string => s !== null).map((s) => settings.box.open(s));
    return sendWebhook({
      url: row.url,
      body,
      headers: webhookHeaders(secrets, row.event_id, new Date(), body),
      timeoutMs: settings.timeoutMs,
      agents,
      signal: stopping.signal,
    });
  }

  /** Records every finished attempt in one go, then again while more finished meanwhile. */
  async function flush(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    while (finished.length > 0) {
      const batch = finished.splice(0);
      try {
        const outcomes = await recordAttempts(db, batch, settings.retryDelaysSeconds);
        batch.forEach((b, i) => {
          settings.onAttempt?.(outcomes[i]!, performance.now() - b.started);
          // The ids and the outcome only: never the secret, the signature or the body.
          log.debug(
            { delivery: b.row.id, event: b.row.event_id, endpoint: b.row.endpoint_id, attempt: b.row.attempts, outcome: outcomes[i] },
            'webhook attempt',
          );
        });
      } catch (err) {
        log.error({ err, deliveries: batch.length }, 'webhook attempts could not be recorded; they are retried when their leases end');
      }
    }
    flushing = undefined;
  }

  schedule(0);
  return {
    /**
     * Stops claiming and ends the attempts in flight at once, unrecorded: a slow
     * endpoint cannot hold up a shutdown, and their leases bring them back.
     */
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await Promise.all(running);
      await flushing;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
