import type { ReactNode } from 'react';
import { PAYOUT_LIMITS, TEST_ACCOUNTS, TEST_BANK_CODES, type SimulatedOutcome } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { payoutStatusLabel } from '@/console/browser/labels';

/** What a test account does, in the words the payouts list will show, with the code the API answers beside it. */
function outcomeWords(outcome: SimulatedOutcome, description: string): ReactNode {
  if (outcome.kind === 'failed' || outcome.kind === 'returned') {
    const status = outcome.kind === 'failed' ? 'failed' : 'returned';
    const words = payoutStatusLabel({ status, failure_code: outcome.failureCode });
    return (
      <>
        {outcome.kind === 'failed' ? 'ends' : 'is paid, then one settlement delay later ends'} “{words}” <code>{outcome.failureCode}</code>
      </>
    );
  }
  return description;
}

/** The documented test values, next to the form that uses them. */
export function TestAccounts({ currency = 'IDR' }: { currency?: string }) {
  return (
    <aside className="card test-values" aria-labelledby="test-accounts-heading">
      <h3 id="test-accounts-heading">Test accounts</h3>
      <ul>
        {Object.entries(TEST_ACCOUNTS).map(([number, { description, outcome }]) => (
          <li key={number}>
            <code>{number}</code> {outcomeWords(outcome, description)}
          </li>
        ))}
        <li>Any other account of 6 to 20 digits is paid after a few seconds.</li>
      </ul>
      <p>
        Bank codes: {TEST_BANK_CODES.join(', ')}. Amount per payout: {formatMoney(PAYOUT_LIMITS.min, currency)} to{' '}
        {formatMoney(PAYOUT_LIMITS.max, currency)}.
      </p>
    </aside>
  );
}
