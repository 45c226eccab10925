'use client';
import { useQuery } from '@tanstack/react-query';
import { balanceQuery } from '@/lib/client/queries';

/** Whose console this is, in the top bar (the balance query the dashboard shares). */
export function MerchantName() {
  const { data } = useQuery(balanceQuery());
  if (!data) return null;
  return (
    <span className="merchant-name" data-testid="merchant-name">
      <span className="visually-hidden">Signed in as </span>
      {data.merchant.name}
    </span>
  );
}
