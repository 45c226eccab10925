// /reports: a statement for a month (the last complete one in the merchant's zone by default) or a range of days:
// opening balance, totals by kind, closing balance; its lines as CSV; a print stylesheet makes it an A4 page.
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { DataTable } from '@/console/browser/components/data-table';
import { PrintButton } from '@/console/browser/components/print-button';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { formatMoney } from '@/lib/format';
import { periodLabel, reportPeriod, statementRequest, typeLabel } from '@/console/browser/report-period';
import { viewerCan } from '@/console/browser/viewer';
import { requireSession } from '@/console/server/session/session';
import { UpstreamError } from '@/console/server/upstream/upstream-error';

export const metadata = { title: 'Reports · Merchant Console' };

type Search = { month?: string; from?: string; to?: string };

export default async function ReportsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  if (!viewerCan(session.viewer, 'balance:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="balance:read" />;
  const query = await searchParams;
  const period = reportPeriod(query, zone);
  const statement = await pageData(session, () =>
    session.api.getStatement(statementRequest(period, zone)).then(
      (r) => r.data,
      (error: unknown) => {
        // A range the API refuses (the end before the start, over 366 days): its message, on the page.
        if (error instanceof UpstreamError && error.status === 400) return error;
        throw error;
      },
    ),
  );
  const month = 'month' in period ? period.month : '';
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs="balance:read">
      <h1 className="no-print">Reports</h1>
      <section className="card no-print" aria-labelledby="period-heading">
        <h2 id="period-heading">Period</h2>
        <form method="get" action="/reports" className="inline-form">
          <label>
            Month
            <input type="month" name="month" defaultValue={month} />
          </label>
          <button type="submit">Show month</button>
        </form>
        <form method="get" action="/reports" className="inline-form">
          <label>
            From
            <input type="date" name="from" defaultValue={'fromDate' in period ? period.fromDate : ''} required />
          </label>
          <label>
            To
            <input type="date" name="to" defaultValue={'toDate' in period ? period.toDate : ''} required />
          </label>
          <button type="submit">Show range</button>
        </form>
        <p className="muted">Days are read in {zone}, the account&apos;s time zone.</p>
      </section>
      {statement instanceof UpstreamError ? (
        <p role="alert" className="error-text">
          {statement.message}
        </p>
      ) : (
        <section className="card statement" aria-labelledby="statement-heading" data-testid="statement">
          <h2 id="statement-heading">Statement</h2>
          <p className="statement-merchant" data-testid="statement-merchant">
            {session.viewer.merchantName}
          </p>
          <p data-testid="statement-period">
            {periodLabel(statement.from, statement.to, statement.time_zone)} ({statement.time_zone})
          </p>
          <dl className="statement-balances">
            <dt>Opening balance</dt>
            <dd data-testid="opening-balance" data-amount={statement.opening_balance}>
              {formatMoney(statement.opening_balance, statement.currency)}
            </dd>
            <dt>Closing balance</dt>
            <dd data-testid="closing-balance" data-amount={statement.closing_balance}>
              {formatMoney(statement.closing_balance, statement.currency)}
            </dd>
          </dl>
          <DataTable
            label="Totals by kind"
            rows={Object.entries(statement.totals)}
            rowKey={([type]) => type}
            rowProps={([type, t]) => ({ 'data-testid': 'total-row', 'data-type': type, 'data-amount': t.amount, 'data-count': t.count })}
            columns={[
              { header: 'Kind', cell: ([type]) => typeLabel(type) },
              { header: 'Entries', cell: ([, t]) => String(t.count) },
              { header: 'Amount', cell: ([, t]) => formatMoney(t.amount, statement.currency) },
            ]}
          />
          <p className="no-print actions">
            <a href={`/api/reports/lines?from=${encodeURIComponent(statement.from)}&to=${encodeURIComponent(statement.to)}`} download>
              Download lines (CSV)
            </a>{' '}
            <PrintButton label="Print statement" />
          </p>
        </section>
      )}
    </ConsoleShell>
  );
}
