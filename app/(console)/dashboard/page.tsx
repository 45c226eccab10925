// /dashboard: balance, money in and out over 7 days, the payout form with its test accounts, the latest payouts and payments.
import { BalanceCard } from '@/components/balance-card';
import { ConsoleShell } from '@/components/console-shell';
import { LatestPayments } from '@/components/latest-payments';
import { MoneyFlowCard } from '@/components/money-flow-card';
import { PayoutPanel } from '@/components/payout-panel';
import { RecentPayouts } from '@/components/recent-payouts';
import { TestAccounts } from '@/components/test-accounts';
import { env } from '@/lib/config/env';
import { latestPayments, moneyFlow } from '@/lib/console/money-flow';
import { pageData, unlessForbidden } from '@/lib/console/page-data';
import { requireSession } from '@/lib/session/session';

export const metadata = { title: 'Dashboard · Merchant Console' };

const WEEK_MS = 7 * 86_400_000;

export default async function DashboardPage() {
  const session = await requireSession();
  const [flow, payments] = await pageData(session, () =>
    Promise.all([unlessForbidden(moneyFlow(session.api, new Date(Date.now() - WEEK_MS))), unlessForbidden(latestPayments(session.api))]),
  );
  return (
    <ConsoleShell testMode={session.testMode}>
      <BalanceCard />
      {flow && <MoneyFlowCard flow={flow} currency="IDR" />}
      <div className="columns">
        <section className="card" aria-labelledby="payout-heading">
          <h2 id="payout-heading">Send a payout</h2>
          <PayoutPanel currency="IDR" retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
        </section>
        <TestAccounts />
      </div>
      <section className="card" aria-labelledby="payouts-heading">
        <h2 id="payouts-heading">Payouts</h2>
        <RecentPayouts />
      </section>
      <section className="card" aria-labelledby="payments-heading">
        <h2 id="payments-heading">Latest payments</h2>
        {payments ? <LatestPayments payments={payments} /> : <p className="muted">This key may not read the balance history.</p>}
      </section>
    </ConsoleShell>
  );
}
