// /logs: the request log (list_requests), searched by payout id, idempotency key, action and status. By default it
// shows what the merchant's systems and people did; the reads the console made to draw its pages (origin
// `console`) are behind a checkbox. Server-rendered: the filters are a plain GET form and "Older" a plain link.
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

/** The answers a support desk looks for, in words; the code stays in the option for a developer. */
const STATUSES: [number, string][] = [
  [200, 'Succeeded'],
  [400, 'Refused: bad input'],
  [403, 'Refused: not permitted'],
  [404, 'Not found'],
  [409, 'Conflict'],
  [422, 'Refused: e.g. not enough balance'],
  [429, 'Too many requests'],
  [500, 'Server error'],
  [503, 'Unavailable'],
];

/** The log with these filters (undefined ones left out). */
const logHref = (query: Record<string, string | number | undefined>) =>
  `/logs?${new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])))}`;

export default async function LogsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'requests:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read" />;
  const { after, console: withConsole, ...filters } = logFiltersQuery.parse(await searchParams);
  const origin = withConsole ? undefined : ('api' as const);
  const page = (
    await pageData(session, () =>
      session.api.listRequests({ ...filters, ...(origin ? { origin } : {}), limit: 50, ...(after ? { starting_after: after } : {}) }),
    )
  ).data;
  const rows = page.data;
  const older = logHref({ ...filters, console: withConsole, after: rows.at(-1)?.id });
  const searching = Object.values(filters).some((v) => v !== undefined);
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read">
      <h1>Logs</h1>
      <p className="hint">
        Every API call made with this account’s keys, reads and refusals included, kept for 30 days. Bodies and account numbers are never
        kept.
      </p>
      <form className="card filters" method="get" action="/logs" aria-label="Search the log">
        <label>
          Payout or object id
          <input name="object_id" defaultValue={filters.object_id ?? ''} placeholder="po_…" autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Idempotency key
          <input name="idempotency_key" defaultValue={filters.idempotency_key ?? ''} autoComplete="off" spellCheck={false} />
        </label>
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
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any status</option>
            {STATUSES.map(([code, words]) => (
              <option key={code} value={code}>
                {words} ({code})
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" name="console" value="1" defaultChecked={withConsole === '1'} />
          Show the console’s own reads
        </label>
        {filters.key_id && <input type="hidden" name="key_id" value={filters.key_id} />}
        <button type="submit">Search</button>
      </form>
      <section className="card" aria-labelledby="log-heading">
        <h2 id="log-heading">Requests</h2>
        {!withConsole && (
          <p className="muted" data-testid="console-reads-hidden">
            The reads this console makes to draw its pages are hidden.{' '}
            <Link href={logHref({ ...filters, console: '1' })}>Show them too</Link>
          </p>
        )}
        {rows.length === 0 ? (
          <p className="muted">
            {searching ? 'No request matches this search.' : 'No requests yet.'} Calls appear here a moment after they are made.
          </p>
        ) : (
          <RequestLogTable rows={rows} />
        )}
        {page.has_more && (
          <p>
            <Link href={older}>Older requests</Link>
          </p>
        )}
      </section>
    </ConsoleShell>
  );
}
