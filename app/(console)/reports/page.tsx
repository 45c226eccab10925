// /reports: a statement for a month (the last complete one in the merchant's zone by default) or a range of days, as
// a bank's: whose, the period and zone, when made, test mode marked; opening balance, every line with its running
// balance, totals by kind, net movement, closing balance (or the balance to date of a period not over). Its lines as
// a CSV named for the period; a print stylesheet makes it an A4 document.
import Link from 'next/link';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { EmptyState } from '@/console/browser/components/empty-state';
import { PrintButton } from '@/console/browser/components/print-button';
import { StatementHeader, StatementLines, StatementSummary } from '@/console/browser/components/statement-view';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { lastActiveMonth, MAX_PAGE_LINES, statementLines } from '@/console/server/data/statement-lines';
import { formatDay, formatMoney, formatTime } from '@/lib/format';
import { periodInstants, periodQuery, rangeProblem, reportPeriod, statementRequest } from '@/console/browser/report-period';
import { ReportRangeForm } from '@/console/browser/components/report-range-form';
import { MAX_STATEMENT_DAYS } from '@/lib/contract';
import { viewerCan } from '@/console/browser/viewer';
import { requireSession } from '@/console/server/session/session';
import { UpstreamError } from '@/console/server/upstream/upstream-error';

export const metadata = { title: 'Reports · Merchant Console' };

type Search = { month?: string; from?: string; to?: string };

const monthWords = (month: string) => formatDay(`${month}-01`).replace(/^1 /, '');

export default async function ReportsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  if (!viewerCan(session.viewer, 'balance:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="balance:read" />;
  const query = await searchParams;
  // A range that cannot be shown (the end before the start, too long) says what to do; the form stops it in the browser,
  // keeping the statement on the page; a typed address shows the default statement under the message.
  const problem = rangeProblem(query, MAX_STATEMENT_DAYS);
  const period = reportPeriod(problem ? {} : query, zone);
  const madeAt = new Date().toISOString();
  const loaded = await pageData(session, async () => {
    try {
      const statement = (await session.api.getStatement(statementRequest(period, zone))).data;
      const { from, to } = periodInstants(period, zone);
      const [{ lines, complete }, lastMonth] = await Promise.all([
        statementLines(session.api, from, to),
        Object.values(statement.totals).some((t) => t.count > 0) ? null : lastActiveMonth(session.api, from, zone),
      ]);
      return { statement, lines, complete, lastMonth };
    } catch (error) {
      // A range the API refuses (the end before the start, over 366 days): its message, on the page.
      if (error instanceof UpstreamError && error.status === 400) return error;
      throw error;
    }
  });
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
        <ReportRangeForm
          from={problem ? (query.from ?? '') : 'fromDate' in period ? period.fromDate : ''}
          to={problem ? (query.to ?? '') : 'toDate' in period ? period.toDate : ''}
          problem={problem}
        />
        <p className="muted">Days are read in {zone}, the account&apos;s time zone.</p>
      </section>
      {loaded instanceof UpstreamError ? (
        <p role="alert" className="error">
          {loaded.message}
        </p>
      ) : (
        <section className="card statement" aria-labelledby="statement-heading" data-testid="statement">
          {(() => {
            const { statement, lines, complete, lastMonth } = loaded;
            const toDate = Date.parse(statement.to) > Date.parse(madeAt);
            return (
              <>
                <StatementHeader
                  statement={statement}
                  merchantName={session.viewer.merchantName}
                  testMode={session.viewer.testMode}
                  toDate={toDate}
                  madeAt={madeAt}
                />
                <p className="statement-opening" data-testid="opening-line" data-amount={statement.opening_balance}>
                  Opening balance at {formatTime(statement.from, statement.time_zone)}:{' '}
                  <strong>{formatMoney(statement.opening_balance, statement.currency)}</strong>
                </p>
                {lines.length === 0 ? (
                  <EmptyState>
                    <p data-testid="statement-empty">
                      No balance changes in this period: the balance stayed the same.{' '}
                      {lastMonth && (
                        <Link href={`/reports?month=${lastMonth}`}>Show {monthWords(lastMonth)}, the last month with activity</Link>
                      )}
                    </p>
                  </EmptyState>
                ) : (
                  <>
                    {!complete && (
                      <p className="muted" data-testid="statement-partial">
                        This period has more than {MAX_PAGE_LINES.toLocaleString('en-US')} lines: the page shows the newest{' '}
                        {MAX_PAGE_LINES.toLocaleString('en-US')}; the CSV has every line.
                      </p>
                    )}
                    <StatementLines lines={lines} currency={statement.currency} zone={statement.time_zone} />
                  </>
                )}
                <StatementSummary statement={statement} toDate={toDate} madeAt={madeAt} />
                <p className="no-print actions">
                  <a href={`/api/reports/lines?${periodQuery(period)}`} download>
                    Download lines (CSV)
                  </a>{' '}
                  <PrintButton label="Print statement" />
                </p>
              </>
            );
          })()}
        </section>
      )}
    </ConsoleShell>
  );
}
