import Link from 'next/link';
import type { z } from 'zod';
import type { requestLogEntrySchema } from '@/lib/contract';
import { objectHref } from '@/console/browser/object-href';

import { DataTable } from './data-table';
import { Time } from './time-zone';

type Entry = z.infer<typeof requestLogEntrySchema>;

/** Where an object the request made or read is shown in the console. */
function objectLink(id: string | null) {
  if (!id) return null;
  const href = objectHref(id);
  return href ? <Link href={href}>{id}</Link> : <code>{id}</code>;
}

/** An action's name with a line break allowed after each underscore (create_restricted_ / key, not create_restricted_ke / y). */
const breakable = (code: string) =>
  code.split('_').flatMap((part, i, parts) => (i < parts.length - 1 ? [`${part}_`, <wbr key={i} />] : [part]));

/** The request log's rows: who (key name, or the secret key), what, the outcome, and the stored answer of an idempotent request. */
export function RequestLogTable({ rows }: { rows: Entry[] }) {
  return (
    <DataTable
      label="Request log"
      rows={rows}
      rowKey={(r) => r.id}
      rowProps={(r) => ({
        'data-testid': 'request-row',
        'data-request-id': r.id,
        'data-action': r.action,
        'data-key-id': r.key_id,
        'data-status': r.status,
        'data-origin': r.origin,
      })}
      columns={[
        { header: 'Time', cell: (r) => <Time iso={r.created_at} /> },
        {
          header: 'Action',
          cell: (r) => (
            <>
              <code>{breakable(r.action)}</code>
              {r.origin === 'console' && <div className="muted">Console page view</div>}
            </>
          ),
        },
        {
          header: 'Status',
          cell: (r) => (
            <>
              {r.status}
              {r.error_code && <div className="muted">{r.error_code}</div>}
            </>
          ),
        },
        {
          header: 'Key',
          cell: (r) => (
            <>
              {r.key_name ?? 'Secret key'}
              <div className="muted">
                <code>{r.key_id}</code>
              </div>
            </>
          ),
        },
        {
          header: 'Idempotency key',
          cell: (r) => (
            <>
              {r.idempotency_key ? (
                <Link href={`/logs/idempotency?key=${encodeURIComponent(r.idempotency_key)}`}>{r.idempotency_key}</Link>
              ) : (
                <span className="muted">—</span>
              )}
              {r.replayed && <div className="muted">replayed</div>}
            </>
          ),
        },
        { header: 'Object', cell: (r) => objectLink(r.object_id) },
        { header: 'Duration', cell: (r) => `${r.duration_ms} ms`, numeric: true },
      ]}
    />
  );
}
