/**
 * Amounts are integers in the currency's smallest unit. IDR is used without a
 * minor unit (whole rupiah), so its amounts are shown as they are.
 */
const MINOR_UNITS: Record<string, number> = { IDR: 0, JPY: 0, KRW: 0 };

const MINUS = '\u2212';

/**
 * An amount as the console shows it everywhere: "IDR 6,750,000", a negative one with the true minus
 * sign ("−IDR 6,750,000"), and with `signed` a positive one with a plus ("+IDR 6,750,000": a balance change).
 */
export function formatMoney(amount: number, currency: string, opts: { signed?: boolean } = {}): string {
  const digits = MINOR_UNITS[currency] ?? 2;
  // Division only for display; the integer stays the value everywhere else.
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: opts.signed ? 'exceptZero' : 'auto',
  })
    .format(amount / 10 ** digits)
    .replace('-', MINUS);
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant as the merchant reads it: day and time on its zone's clock, and the zone's short name (27 Nov 2026, 06:16:25 WIB). */
export function formatTime(iso: string, zone: string): string {
  let f = timeFormats.get(zone);
  if (!f) timeFormats.set(zone, (f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: zone })));
  const at = Date.parse(iso);
  return `${f.format(at)} ${zoneLabel(zone, at)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** A calendar day (YYYY-MM-DD, already a day of the merchant's zone) in words: 20 Nov 2026. */
export const formatDay = (day: string): string => dayFormat.format(Date.parse(`${day}T00:00:00Z`));

const shortName = (locale: string, zone: string, at: number) =>
  new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')
    ?.value ?? zone;

/**
 * The zone's short name at that instant: CET or CEST for Berlin; for Indonesia's zones, which English
 * only knows as GMT+7, the names merchants there use (WIB, WITA, WIT); otherwise the offset (GMT+5:45).
 */
export function zoneLabel(zone: string, at: number = Date.now()): string {
  const english = shortName('en-GB', zone, at);
  if (!/^GMT[+-]/.test(english)) return english;
  const indonesian = shortName('id-ID', zone, at);
  return /^WI(B|TA|T)$/.test(indonesian) ? indonesian : english;
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

const plurals = new Intl.PluralRules('en-US');

/** A count with its noun in the right number: "1 payout", "2 payouts", "1,204 balance changes" (`many` when the plural is not noun + s). */
export function countOf(count: number, noun: string, many = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${plurals.select(count) === 'one' ? noun : many}`;
}
