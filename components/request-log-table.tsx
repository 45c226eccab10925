import Link from 'next/link';
import type { z } from 'zod';
import type { requestLogEntrySchema } from '@/lib/contract';
import { objectHref } from '@/lib/client/object-href';
import { formatTime } from '@/lib/format';
import { TableScroll } from './table-scroll';

type Entry = z.infer<typeof requestLogEntrySchema>;

/** Where an object the request made or read is shown in the console. */
function objectLink(id: string | null) {
  if (!id) return null;
  const href = objectHref(id);
  return href ? <Link href={href}>{id}</Link> : <code>{id}</code>;
}

/** The request log's rows: who (key name, or the secret key), what, the outcome, and the stored answer of an idempotent request. */
export function RequestLogTable({ rows }: { rows: Entry[] }) {
  return (
    <TableScroll label="Request log table">
      <table className="table" aria-label="Request log">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Action</th>
            <th scope="col">Status</th>
            <th scope="col">Key</th>
            <th scope="col">Idempotency key</th>
            <th scope="col">Object</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="request-row" data-request-id={r.id} data-action={r.action} data-key-id={r.key_id} data-status={r.status}>
              <td>{formatTime(r.created_at)}</td>
              <td>
                <code>{r.action}</code>
              </td>
              <td>
                {r.status}
                {r.error_code && <div className="muted">{r.error_code}</div>}
              </td>
              <td>
                {r.key_name ?? 'Secret key'}
                <div className="muted">
                  <code>{r.key_id}</code>
                </div>
              </td>
              <td>
                {r.idempotency_key ? (
                  <Link href={`/logs/idempotency?key=${encodeURIComponent(r.idempotency_key)}`}>{r.idempotency_key}</Link>
                ) : (
                  <span className="muted">—</span>
                )}
                {r.replayed && <div className="muted">replayed</div>}
              </td>
              <td>{objectLink(r.object_id)}</td>
              <td>{r.duration_ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
