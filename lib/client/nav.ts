// The console's navigation, one entry a line (other pages add theirs here: keep it a plain list).
export interface NavItem {
  href: string;
  label: string;
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/payouts', label: 'Payouts' },
  { href: '/payout-batches', label: 'Batch payout' },
  { href: '/checkout-sessions', label: 'Checkout' },
  { href: '/balance', label: 'Balance' },
  { href: '/webhooks', label: 'Webhooks' },
];

/** The entry a path belongs to: itself or any page under it (/payouts/po_… is under Payouts). */
export function isCurrent(item: NavItem, pathname: string): boolean {
  return pathname === item.href || pathname.startsWith(`${item.href}/`);
}
