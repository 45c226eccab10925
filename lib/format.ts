/**
 * Amounts are integers in the currency's smallest unit. IDR is used without a
 * minor unit (whole rupiah), so its amounts are shown as they are.
 */
const MINOR_UNITS: Record<string, number> = { IDR: 0, JPY: 0, KRW: 0 };

export function formatMoney(amount: number, currency: string): string {
  const digits = MINOR_UNITS[currency] ?? 2;
  // Division only for display; the integer stays the value everywhere else.
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount / 10 ** digits);
}

export function formatTime(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC';
}

/** Who made an object, in words: the restricted key's name, or "Secret key". */
export function createdByLabel(by: { key_id: string; key_name: string | null; type: 'secret' | 'restricted' } | null): string {
  if (!by) return '—';
  return by.type === 'secret' ? 'Secret key' : (by.key_name ?? by.key_id);
}

/** How much of a paid checkout session was refunded, as the console marks it: null when none. */
export function refundMark(s: { status: string; amount: number; amount_refunded: number }): 'refunded' | 'partly refunded' | null {
  if (s.status === 'refunded') return 'refunded';
  return s.amount_refunded > 0 ? 'partly refunded' : null;
}
