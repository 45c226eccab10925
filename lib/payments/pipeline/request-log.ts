import { deleteInBatches } from '../../db/delete-in-batches';
import type { Db, Queryable } from '../../db/types';
import type { Logger } from '../../log';
import type { RequestOrigin } from '../../contract';

/** One authenticated API call, as the request log keeps it: never a body, a secret or an account number. */
export interface RequestLogEntry {
  id: string;
  merchantId: string;
  at: Date;
  action: string;
  status: number;
  errorCode: string | null;
  ms: number;
  keyId: string;
  idempotencyKey: string | null;
  replayed: boolean;
  objectId: string | null;
  clientAddress: string | null;
  /** `console` only for a successful read the console marked (REQUEST_ORIGIN_HEADER); `api` otherwise. */
  origin: RequestOrigin;
}

export interface RequestLog {
  record(entry: RequestLogEntry): void;
  /** Writes what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const FLUSH_EVERY_MS = 200;
const FLUSH_AT = 500;
/** Past this many rows waiting (the database is down), new ones are dropped and counted, not kept forever. */
const MAX_BUFFERED = 50_000;

/**
 * Keeps the request log off the request path: entries are buffered and written
 * as one multi-row INSERT every 200 ms (or at 500 rows), so a request never
 * waits on it and the log costs one statement per batch rather than one per
 * request. The price: a process killed hard loses at most the last batch.
 */
export function createRequestLog(db: Db, log: Logger): RequestLog {
  let buffer: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let dropped = 0;

  const write = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return writing;
    const batch = buffer;
    buffer = [];
    writing = writing.then(() =>
      insertEntries(db, batch).then(
        () => undefined,
        (err: unknown) => {
          // Put them back once; a database that stays down drops the oldest past the cap.
          buffer = batch.concat(buffer).slice(-MAX_BUFFERED);
          log.warn({ err, rows: batch.length }, 'request log write failed; retrying');
          schedule();
        },
      ),
    );
    return writing;
  };
  const schedule = () => {
    if (!timer) {
      timer = setTimeout(write, FLUSH_EVERY_MS);
      timer.unref();
    }
  };

  return {
    record(entry) {
      if (buffer.length >= MAX_BUFFERED) {
        if (dropped++ % 1000 === 0) log.error({ dropped }, 'request log buffer full; dropping entries');
        return;
      }
      buffer.push(entry);
      if (buffer.length >= FLUSH_AT) void write();
      else schedule();
    },
    flush: async () => {
      await write();
      await writing;
    },
    async stop() {
      await write();
      await writing;
    },
  };
}

function insertEntries(db: Queryable, rows: RequestLogEntry[]) {
  return db.query(
    `INSERT INTO request_log (id, merchant_id, created_at, action, status, error_code, duration_ms, key_id, idempotency_key, replayed, object_id, client_address, origin)
     SELECT r.id, r.merchant_id, r.created_at, r.action, r.status, r.error_code, r.duration_ms, r.key_id, r.idempotency_key, r.replayed,
            r.object_id, r.client_address, r.origin
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::text[], $7::int[], $8::text[], $9::text[], $10::bool[], $11::text[], $12::text[], $13::text[])
         WITH ORDINALITY AS r(id, merchant_id, created_at, action, status, error_code, duration_ms, key_id, idempotency_key, replayed, object_id, client_address, origin, n)
     -- A purged sandbox's last calls are dropped, not retried forever: one such row would fail every batch it rides in.
     WHERE EXISTS (SELECT 1 FROM merchants m WHERE m.id = r.merchant_id)
     -- seq follows the order the calls were answered in (the semi-join may reorder).
     ORDER BY r.n
     ON CONFLICT (id) DO NOTHING`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.merchantId),
      rows.map((r) => r.at.toISOString()),
      rows.map((r) => r.action),
      rows.map((r) => r.status),
      rows.map((r) => r.errorCode),
      rows.map((r) => Math.round(r.ms)),
      rows.map((r) => r.keyId),
      rows.map((r) => r.idempotencyKey),
      rows.map((r) => r.replayed),
      rows.map((r) => r.objectId),
      rows.map((r) => r.clientAddress),
      rows.map((r) => r.origin),
    ],
  );
}

/** Deletes rows older than the retention in batches; returns how many went. */
export function purgeRequestLog(db: Db, retentionDays: number, batchSize = 5000): Promise<number> {
  return deleteInBatches(db, {
    table: 'request_log',
    key: 'seq',
    select: 'SELECT seq FROM request_log WHERE created_at < now() - make_interval(days => $1)',
    params: [retentionDays],
    batchSize,
    brin: 'request_log_created',
  });
}
