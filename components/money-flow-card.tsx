import Link from 'next/link';
import type { MoneyFlow } from '@/lib/client/console-views';
import { formatMoney } from '@/lib/format';

/** Money in and out over the last 7 UTC days (today included), from the per-day figures of the balance; amounts exact. */
export function MoneyFlowCard({ flow, currency }: { flow: MoneyFlow; currency: string }) {
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
        {`From ${flow.entries.toLocaleString('en-US')} balance changes since ${flow.since.slice(0, 10)} (UTC)`} (payments, payouts, refunds,
        returned payouts and refunds, and top-ups). <Link href="/balance">Balance history</Link>
      </p>
    </section>
  );
}
