import Link from 'next/link';
import type { MoneyFlow } from '@/console/browser/console-views';
import { formatDay, formatMoney, zoneLabel } from '@/lib/format';

/** Money in and out over the last 7 days of the merchant's zone (today included), from the per-day figures of the balance; amounts exact. */
export function MoneyFlowCard({ flow, currency, timeZone }: { flow: MoneyFlow; currency: string; timeZone: string }) {
  return (
    <section className="card" aria-labelledby="flow-heading">
      <h2 id="flow-heading">Last 7 days</h2>
      <dl className="flows">
        <div>
          <dt>Money in</dt>
          <dd data-testid="money-in" data-amount={flow.moneyIn}>
            +{formatMoney(flow.moneyIn, currency)}
          </dd>
        </div>
        <div>
          <dt>Money out</dt>
          <dd data-testid="money-out" data-amount={flow.moneyOut}>
            −{formatMoney(flow.moneyOut, currency)}
          </dd>
        </div>
      </dl>
      <p className="muted">
        {`From ${flow.entries.toLocaleString('en-US')} balance changes since ${formatDay(flow.sinceDay)} (${zoneLabel(timeZone)})`}{' '}
        (payments, payouts, refunds, returned payouts and refunds, and top-ups). <Link href="/balance">Balance history</Link>
      </p>
    </section>
  );
}
