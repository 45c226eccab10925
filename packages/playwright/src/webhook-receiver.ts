import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks as verifier, type Event } from 'merchant-payments-sdk';

/** What `next` waits for: an event type, and the object it is about (a payout, a checkout session, a refund, any id). */
export interface EventMatch {
  payoutId?: string;
  checkoutSessionId?: string;
  refundId?: string;
  objectId?: string;
}

interface Delivery {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A local receiver of one sandbox's webhooks: every delivery is kept as received; `next` verifies
 * signatures with the endpoint's secret (merchant-payments-sdk's webhooks.verify) and hands each
 * event to one caller only.
 */
export class WebhookReceiver {
  readonly #server: Server;
  readonly #deliveries: Delivery[] = [];
  readonly #taken = new Set<string>();
  readonly #waiters = new Set<() => void>();
  readonly #publicHost: string | undefined;
  #secret = '';

  private constructor(server: Server, publicHost: string | undefined) {
    this.#server = server;
    this.#publicHost = publicHost;
  }

  /**
   * Listens on a free port: on 127.0.0.1 alone when the API's server runs on this machine, or on every
   * interface when it reaches this machine at `publicHost` (the fixtures' webhookHost option), which the
   * endpoint's URL then names.
   */
  static async start(publicHost?: string): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, publicHost);
    server.on('request', (req, res) => {
      void readBody(req).then((body) => {
        receiver.#deliveries.push({ body, headers: req.headers });
        res.writeHead(204).end();
        for (const wake of receiver.#waiters) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, publicHost === undefined ? '127.0.0.1' : undefined, resolve));
    return receiver;
  }

  /** Where the API delivers: `http://<host>:<port>/webhooks`, the host as the API's server reaches this machine. */
  url(): string {
    const { address, port } = this.#server.address() as AddressInfo;
    const host = this.#publicHost ?? address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}/webhooks`;
  }

  /** The endpoint's signing secret (`whsec_…`), from create_webhook_endpoint's answer. */
  useSecret(secret: string) {
    this.#secret = secret;
  }

  /**
   * The first event of `type` about the matching object that no earlier `next` took, verified; waits up to
   * `timeoutMs` for it (10 s), then fails naming what did arrive. A delivery whose signature fails to verify
   * fails the wait at once.
   */
  async next(type: Event['type'], match: EventMatch = {}, opts: { timeoutMs?: number } = {}): Promise<Event> {
    const objectId = match.payoutId ?? match.checkoutSessionId ?? match.refundId ?? match.objectId;
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      for (const delivery of this.#deliveries) {
        const event = verifier.verify(delivery.body, delivery.headers, this.#secret);
        if (this.#taken.has(event.id) || event.type !== type || (objectId !== undefined && idOf(event) !== objectId)) continue;
        this.#taken.add(event.id);
        return event;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} event${objectId ? ` about ${objectId}` : ''} arrived; what did: ${this.#describe()}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** Every event received so far, verified, in the order it arrived. */
  received(): Event[] {
    return this.#deliveries.map((d) => verifier.verify(d.body, d.headers, this.#secret));
  }

  #describe(): string {
    if (this.#deliveries.length === 0) return 'nothing';
    return this.received()
      .map((e) => `${e.type} ${idOf(e) ?? ''}`.trim())
      .join(', ');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The id of the object an event is about (its `data.object.id`; a balance alert has none). */
const idOf = (event: Event): string | undefined => (event.data.object as { id?: unknown }).id as string | undefined;
