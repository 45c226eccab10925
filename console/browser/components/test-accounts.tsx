import { PAYOUT_LIMITS, TEST_ACCOUNTS, TEST_BANK_CODES } from '@/lib/contract';
import { formatMoney } from '@/lib/format';

/** The documented test values, next to the form that uses them. */
export function TestAccounts({ currency = 'IDR' }: { currency?: string }) {
  return (
    <aside className="card test-values" aria-labelledby="test-accounts-heading">
      <h3 id="test-accounts-heading">Test accounts</h3>
      <ul>
        {Object.entries(TEST_ACCOUNTS).map(([number, { description }]) => (
          <li key={number}>
            <code>{number}</code> {description}
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
