// Markup that several pages share is written once: the tables (console/browser/components/data-table.tsx), the
// warning for an intent too old to resend (stale-intent.tsx), and a secret shown once (secret-shown-once.tsx).
import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-files';

const files = sourceFiles(['app', 'console'], /\.tsx$/);
const writing = (pattern: RegExp) => files.filter((f) => pattern.test(readSource(f)));

describe('repeated markup', () => {
  it('every table is drawn by the table component', () => {
    expect(writing(/<table\b/)).toEqual(['console/browser/components/data-table.tsx']);
  });

  it('one stale-intent warning', () => {
    expect(writing(/data-testid="stale-intent"/)).toEqual(['console/browser/components/stale-intent.tsx']);
  });

  it('one "secret shown once" block', () => {
    expect(writing(/shown only now/)).toEqual(['console/browser/components/secret-shown-once.tsx']);
  });
});
