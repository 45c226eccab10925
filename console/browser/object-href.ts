import { isId } from '../../lib/contract';

/**
 * Where the console shows the object an id names, or null when it shows none on a page of its own.
 * A refund is shown on its checkout session's page (/refunds/[id] goes there).
 */
export function objectHref(id: string): string | null {
  if (isId('po', id)) return `/payouts/${id}`;
  if (isId('cs', id)) return `/checkout-sessions/${id}`;
  if (isId('re', id)) return `/refunds/${id}`;
  return null;
}
