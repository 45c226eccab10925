import Link from 'next/link';
import type { BalanceTransaction, Statement } from '@/lib/contract';
import { formatMoney, formatTime } from '@/lib/format';
import { objectHref } from '@/console/browser/object-href';
import { periodLabel } from '@/console/browser/report-period';
import { balanceKindLabel } from '@/console/browser/labels';
import { DataTable } from './data-table';

/** The statement's lines: when, what, the reference to find it by, the amount and the balance it left. */
export function StatementLines({ lines, currency, zone }: { lines: BalanceTransaction[]; currency: string; zone: string }) {
  return (
    <div className="statement-lines">
      <h3>Lines</h3>
      <DataTable
        label="Statement lines"
        rows={lines}
        rowKey={(t) => t.id}
        rowProps={(t) => ({
          'data-testid': 'statement-line',
          'data-amount': t.amount,
          'data-balance-after': t.balance_after,
          'data-type': t.type,
        })}
        columns={[
          { header: 'Date and time', cell: (t) => <time dateTime={t.created_at}>{formatTime(t.created_at, zone)}</time> },
          { header: 'Kind', cell: (t) => balanceKindLabel(t.type) },
          {
            header: 'Reference',
            cell: (t) => {
              const href = objectHref(t.source);
              return (
                <>
                  {href ? <Link href={href}>{t.source}</Link> : <span>{t.source}</span>}
                  {t.bank_reference && <div className="muted">Bank ref. {t.bank_reference}</div>}
                </>
              );
            },
          },
          {
            header: 'Amount',
            numeric: true,
            cell: (t) => formatMoney(t.amount, currency, { signed: true }),
          },
          { header: 'Balance', numeric: true, cell: (t) => formatMoney(t.balance_after, currency) },
        ]}
      />
    </div>
  );
}

/** Totals of the kinds the period has, the net movement, and opening + net = closing written out. */
export function StatementSummary({ statement, toDate, madeAt }: { statement: Statement; toDate: boolean; madeAt: string }) {
  const { currency } = statement;
  const kinds = Object.entries(statement.totals).filter(([, t]) => t.count > 0);
  const net = statement.closing_balance - statement.opening_balance;
  const closingLabel = toDate ? `Balance to date (${formatTime(madeAt, statement.time_zone)})` : 'Closing balance';
  return (
    <>
      {kinds.length > 0 && <h3>Totals by kind</h3>}
      {kinds.length > 0 && (
        <DataTable
          label="Totals by kind"
          narrow
          rows={kinds}
          rowKey={([type]) => type}
          rowProps={([type, t]) => ({ 'data-testid': 'total-row', 'data-type': type, 'data-amount': t.amount, 'data-count': t.count })}
          columns={[
            { header: 'Kind', cell: ([type]) => balanceKindLabel(type) },
            { header: 'Lines', numeric: true, cell: ([, t]) => t.count.toLocaleString('en-US') },
            { header: 'Total', numeric: true, cell: ([, t]) => formatMoney(t.amount, currency, { signed: true }) },
          ]}
        />
      )}
      <h3>Balances</h3>
      <dl className="statement-balances">
        <dt>Opening balance</dt>
        <dd data-testid="opening-balance" data-amount={statement.opening_balance}>
          {formatMoney(statement.opening_balance, currency)}
        </dd>
        <dt>Net movement</dt>
        <dd data-testid="net-movement" data-amount={net}>
          {formatMoney(net, currency, { signed: true })}
        </dd>
        <dt>{closingLabel}</dt>
        <dd data-testid="closing-balance" data-amount={statement.closing_balance}>
          {formatMoney(statement.closing_balance, currency)}
        </dd>
      </dl>
      <p className="statement-check" data-testid="reconciliation">
        {formatMoney(statement.opening_balance, currency)} opening {net < 0 ? '−' : '+'} {formatMoney(Math.abs(net), currency)} net movement
        = {formatMoney(statement.closing_balance, currency)} {toDate ? 'to date' : 'closing'}
      </p>
    </>
  );
}

/** The statement's heading lines: whose, which period in which zone, when made, and whether it is test money. */
export function StatementHeader({
  statement,
  merchantName,
  testMode,
  toDate,
  madeAt,
}: {
  statement: Statement;
  merchantName: string;
  testMode: boolean;
  toDate: boolean;
  madeAt: string;
}) {
  const zone = statement.time_zone;
  return (
    <header className="statement-header">
      <h2 id="statement-heading">Statement</h2>
      {testMode && (
        <p className="statement-test-mark" data-testid="statement-test-mode">
          Test mode: simulated money, not real funds
        </p>
      )}
      <p className="statement-merchant" data-testid="statement-merchant">
        {merchantName}
      </p>
      <p data-testid="statement-period">
        {periodLabel(statement.from, statement.to, zone)}
        {toDate && <strong> (to date)</strong>} · times in {zone}
      </p>
      <p className="muted" data-testid="statement-made">
        Made {formatTime(madeAt, zone)}
        {toDate && ': the period is not over, so its figures run to this moment'}
      </p>
    </header>
  );
}
