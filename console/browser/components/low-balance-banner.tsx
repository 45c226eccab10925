'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { balanceQuery } from '@/console/browser/queries/queries';
import { formatMoney } from '@/lib/format';

/**
 * On every signed-in page while `available` is below the merchant's low-balance threshold: the
 * same figures as the balance.low event, from the balance the console already polls.
 */
export function LowBalanceBanner() {
  const { data } = useQuery(balanceQuery());
  if (!data || data.low_balance_threshold === null || data.available >= data.low_balance_threshold) return null;
  return (
    <div className="low-balance-banner" role="status" data-testid="low-balance-banner">
      Low balance: {formatMoney(data.available, data.currency)} available, below your threshold of{' '}
      {formatMoney(data.low_balance_threshold, data.currency)}. Payouts above the available balance are refused.{' '}
      <Link href="/balance">See the balance</Link>
    </div>
  );
}
