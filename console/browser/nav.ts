// The console's navigation, one entry a line (other pages add theirs here: keep it a plain list).
import type { ActionPermission } from '../../lib/contract';

export interface NavItem {
  href: string;
  label: string;
  /** The permission the page's main action needs: a key without it does not see the entry. */
  needs: ActionPermission;
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/dashboard', label: 'Dashboard', needs: 'any_key' },
  { href: '/payouts', label: 'Payouts', needs: 'payouts:read' },
  { href: '/payout-batches', label: 'Batch payout', needs: 'payouts:write' },
  { href: '/approvals', label: 'Approvals', needs: 'payouts:read' },
  { href: '/checkout-sessions', label: 'Checkout', needs: 'checkout_sessions:read' },
  { href: '/refunds', label: 'Refunds', needs: 'refunds:read' },
  { href: '/balance', label: 'Balance', needs: 'balance:read' },
  { href: '/reports', label: 'Reports', needs: 'balance:read' },
  { href: '/webhooks', label: 'Webhooks', needs: 'webhooks:write' },
  { href: '/api-keys', label: 'API keys', needs: 'secret_key' },
  { href: '/logs', label: 'Logs', needs: 'requests:read' },
  { href: '/settings', label: 'Settings', needs: 'secret_key' },
  { href: '/sandboxes', label: 'Sandboxes', needs: 'sandboxes:write' },
];

/** The entry a path belongs to: itself or any page under it (/payouts/po_… is under Payouts). */
export function isCurrent(item: NavItem, pathname: string): boolean {
  return pathname === item.href || pathname.startsWith(`${item.href}/`);
}
