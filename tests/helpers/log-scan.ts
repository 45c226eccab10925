/**
 * Finds secrets in a server's captured output. The one place a key may appear
 * is the demo merchant's announcement, printed to the terminal (not the log) on
 * the first start of an empty database; that block is cut out first.
 */
const ANNOUNCEMENT = /^ {2}Demo merchant "[^"\n]*" created with [^\n]*\n {2}Its secret key[^\n]*\n\n {4}sk_test_[0-9A-Za-z]+\n/gm;

/** Shapes that are secret whatever their value. */
const SECRET_SHAPES: Array<[string, RegExp]> = [
  ['secret key', /sk_(test|live)_[0-9A-Za-z]{16,}/],
  ['Authorization header value', /bearer\s+[^\s"\]]{8,}/i],
  ['sealed iron-session cookie', /Fe26\.2\*/],
  ['webhook signing secret', /whsec_[A-Za-z0-9+/]{16,}/],
  ['webhook signature', /v1,[A-Za-z0-9+/]{40,}={0,2}/],
  ['full test account number', /\b(9876543210123|5550001112223334)\b/],
];

export interface Leak {
  what: string;
  line: string;
}

export function findLeaks(output: string, literalSecrets: Array<[string, string]> = []): Leak[] {
  const leaks: Leak[] = [];
  for (const line of output.replace(ANNOUNCEMENT, '').split('\n')) {
    for (const [what, shape] of SECRET_SHAPES) if (shape.test(line)) leaks.push({ what, line });
    for (const [what, value] of literalSecrets) if (value && line.includes(value)) leaks.push({ what, line });
  }
  return leaks;
}

export const countAnnouncements = (output: string) => output.match(ANNOUNCEMENT)?.length ?? 0;
