// /logs: the request log (list_requests), filtered by action, status and idempotency key. Server-rendered:
// the filters are a plain GET form and "Older" a plain link, so it works before hydration.
import Link from 'next/link';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { RequestLogTable } from '@/console/browser/components/request-log-table';
import { viewerCan } from '@/console/browser/viewer';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { logFiltersQuery } from '@/console/server/routes/request-schemas';
import { ACTION_NAMES } from '@/lib/contract';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Logs · Merchant Console' };

export default async function LogsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'requests:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read" />;
  const { after, ...filters } = logFiltersQuery.parse(await searchParams);
  const page = (
    await pageData(session, () => session.api.listRequests({ ...filters, limit: 50, ...(after ? { starting_after: after } : {}) }))
  ).data;
  const rows = page.data;
  const older = new URLSearchParams(
    Object.entries({ ...filters, after: rows.at(-1)?.id }).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  );
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read">
      <h1>Logs</h1>
      <p className="hint">
        Every API call made with this account’s keys, reads and refusals included, kept for 30 days. Bodies and account numbers are never
        kept.
      </p>
      <form className="card filters" method="get" action="/logs" aria-label="Filter the log">
        <label>
          Action
          <select name="request_action" defaultValue={filters.request_action ?? ''}>
            <option value="">Any action</option>
            {ACTION_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <input name="status" inputMode="numeric" defaultValue={filters.status ?? ''} placeholder="200" />
        </label>
        <label>
          Idempotency key
          <input name="idempotency_key" defaultValue={filters.idempotency_key ?? ''} autoComplete="off" />
        </label>
        {filters.key_id && <input type="hidden" name="key_id" value={filters.key_id} />}
        <button type="submit">Filter</button>
      </form>
      <section className="card" aria-labelledby="log-heading">
        <h2 id="log-heading">Requests</h2>
        {rows.length === 0 ? (
          <p className="muted">No requests match. Calls appear here a moment after they are made.</p>
        ) : (
          <RequestLogTable rows={rows} />
        )}
        {page.has_more && (
          <p>
            <Link href={`/logs?${older}`}>Older requests</Link>
          </p>
        )}
      </section>
    </ConsoleShell>
  );
}
