// /balance: the balance history (list_balance_transactions), each entry linked to its source, and a 30-day chart.
// Rendered on the server: it works before hydration, and "Older" is a plain link.
import Link from 'next/link';
import { BalanceChart } from '@/console/browser/components/balance-chart';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { DataTable } from '@/console/browser/components/data-table';
import { endOfDayBalances } from '@/console/server/data/daily-balances';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { formatMoney, formatTime } from '@/lib/format';
import { balanceKindLabel } from '@/console/browser/labels';
import { balanceMomentQuery } from '@/console/browser/balance-moment';
import { objectHref } from '@/console/browser/object-href';
import { viewerCan } from '@/console/browser/viewer';
import { ledgerEntryOf } from '@/lib/contract';
import { requireSession } from '@/console/server/session/session';
import { Time } from '@/console/browser/components/time-zone';

export const metadata = { title: 'Balance · Merchant Console' };

function sourceLink(source: string) {
  const href = objectHref(source);
  return href ? <Link href={href}>{source}</Link> : <span className="muted">{source}</span>;
}

type Search = { after?: string; entry?: string; until?: string; at_day?: string; at_time?: string };

/**
 * `?entry=txn_…&until=<ISO time>` (a payout's page links its reversal so) starts the history at that
 * entry's time and marks the entry, so an old one is found without paging.
 */
function historyQuery({ after, entry, until }: Search) {
  const startingAfter = typeof after === 'string' && ledgerEntryOf(after) !== null ? after : undefined;
  const createdLt =
    typeof until === 'string' && !Number.isNaN(Date.parse(until)) && /Z$/.test(until) ? new Date(until).toISOString() : undefined;
  return {
    query: { limit: 50, ...(startingAfter ? { starting_after: startingAfter } : {}), ...(createdLt ? { created_lt: createdLt } : {}) },
    entry: typeof entry === 'string' && ledgerEntryOf(entry) !== null ? entry : undefined,
    keep: createdLt ? `&until=${encodeURIComponent(createdLt)}` : '',
  };
}

export default async function BalancePage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  // Before any call the key may not make: the shell says what it lacks.
  if (!viewerCan(session.viewer, 'balance:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="balance:read" />;
  const search = await searchParams;
  const { query, entry, keep } = historyQuery(search);
  const { moment, asOf, future, suggestedDay } = balanceMomentQuery(search, zone);
  const [page, daily, atMoment] = await pageData(session, () =>
    Promise.all([
      session.api.listBalanceTransactions(query),
      endOfDayBalances(session.api, 30),
      asOf && !future ? session.api.getBalanceAsOf(asOf).then((r) => r.data) : null,
    ]),
  );
  const rows = page.data.data;
  const currency = rows[0]?.currency ?? 'IDR';
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs="balance:read">
      <h1>Balance</h1>
      <section className="card" aria-labelledby="chart-heading">
        <h2 id="chart-heading">Available, last 30 days</h2>
        <BalanceChart points={daily} currency={currency} timeZone={zone} />
      </section>
      <section className="card" aria-labelledby="moment-heading">
        <h2 id="moment-heading">Balance at a moment</h2>
        <form method="get" action="/balance" className="inline-form">
          <label>
            Day
            <input type="date" name="at_day" defaultValue={moment?.day ?? suggestedDay} required />
          </label>
          <label>
            Time
            <input type="time" name="at_time" defaultValue={moment?.time ?? '23:59'} required />
          </label>
          <button type="submit">Show balance</button>
        </form>
        {moment && future && (
          <p role="alert" className="error">
            That moment has not come yet in {zone}. Choose a day and time up to now.
          </p>
        )}
        {moment && atMoment && (
          <p data-testid="balance-at-moment" data-amount={atMoment.available} data-as-of={asOf}>
            Available at {formatTime(asOf!, zone)}: <strong>{formatMoney(atMoment.available, atMoment.currency)}</strong>
          </p>
        )}
        <p className="muted">
          The time is read in {zone}, the account&apos;s time zone; the balance counts every change booked up to the end of that minute.
        </p>
      </section>
      <section className="card" aria-labelledby="history-heading">
        <h2 id="history-heading">Balance history</h2>
        {keep && (
          <p className="muted">
            Up to the entry you followed. <Link href="/balance">Newest entries</Link>
          </p>
        )}
        {rows.length === 0 ? (
          <p className="muted">No balance changes yet. A checkout payment, a payout, a refund or a top-up will show here.</p>
        ) : (
          <DataTable
            label="Balance history"
            rows={rows}
            rowKey={(t) => t.id}
            rowProps={(t) => ({
              className: t.id === entry ? 'highlight' : undefined,
              'aria-current': t.id === entry ? 'true' : undefined,
              'data-testid': 'txn-row',
              'data-txn-id': t.id,
              'data-amount': t.amount,
              'data-balance-after': t.balance_after,
              'data-type': t.type,
            })}
            columns={[
              { header: 'Date', cell: (t) => <Time iso={t.created_at} /> },
              { header: 'Kind', cell: (t) => balanceKindLabel(t.type) },
              { header: 'Amount', cell: (t) => formatMoney(t.amount, t.currency, { signed: true }), numeric: true },
              { header: 'Balance after', cell: (t) => formatMoney(t.balance_after, t.currency), numeric: true },
              {
                header: 'Source',
                cell: (t) => (
                  <>
                    {sourceLink(t.source)}
                    {t.bank_reference && <div className="muted">Bank reference {t.bank_reference}</div>}
                  </>
                ),
              },
            ]}
          />
        )}
        {page.data.has_more && (
          <p>
            <Link href={`/balance?after=${rows.at(-1)!.id}${keep}`}>Older entries</Link>
          </p>
        )}
      </section>
    </ConsoleShell>
  );
}
