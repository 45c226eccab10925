// README.md and docs/ say how things are, not when they were measured or by whom: history lives in git.
// docs/benchmarks.md is exempt from the date and commit rules only: its generated header names the run's date and
// commit, which are data about the figures below them (tests/docs/benchmarks-page.test.ts checks that page).
import { describe, expect, it } from 'vitest';
import { documentationPages, prose, readPage } from './markdown';

/** What a diary leaves behind, in prose (code is left out: an example command may carry a date). */
const DIARY: Array<[string, RegExp]> = [
  ['a date', /\b20\d\d-\d\d-\d\d\b/],
  ['a commit id as history', /\b(commit|main|branch|on|at)\s+[0-9a-f]{7,40}\b/],
];
/** Anywhere, code included: an issue number, or a working session as the subject of a sentence. */
const HISTORY: Array<[string, RegExp]> = [
  ['an issue number', /\bissues? #?\d+/i],
  ['a work session', /\b(this|that|the (previous|next|last|earlier)|an earlier|a later) session's (run|ci|figures|rehearsal|change)/i],
  ['a work session', /\b(in|during|since|before|after) (this|that|the (previous|next|last)) session\b/i],
];

const lines = (text: string) => text.split('\n').map((line, i) => ({ line, n: i + 1 }));

describe('README.md and docs/*.md keep no diary', () => {
  for (const page of documentationPages()) {
    it(page, () => {
      const text = readPage(page);
      const found: string[] = [];
      if (page !== 'docs/benchmarks.md')
        for (const { line, n } of lines(prose(text)))
          for (const [what, pattern] of DIARY) if (pattern.test(line)) found.push(`${page}:${n}: ${what}: ${line.trim()}`);
      for (const { line, n } of lines(text))
        for (const [what, pattern] of HISTORY) if (pattern.test(line)) found.push(`${page}:${n}: ${what}: ${line.trim()}`);
      expect(found).toEqual([]);
    });
  }

  it('the rules catch what they are for', () => {
    const hits = (text: string, page = 'docs/x.md') =>
      (page === 'docs/benchmarks.md' ? [] : DIARY).filter(([, p]) => p.test(prose(text))).length +
      HISTORY.filter(([, p]) => p.test(text)).length;
    expect(hits('Measured on 2026-11-26 on this machine.')).toBe(1);
    expect(hits('The whole run on main 0b0e971 took 521 s.')).toBe(1);
    expect(hits('Retired as a target by issue 34.')).toBe(1);
    expect(hits("This session's CI rehearsal passed.")).toBe(1);
    // Domain words and examples are not history.
    expect(hits("The session's merchant id; sign out ends this session; a checkout session's url.")).toBe(0);
    expect(hits('`from=2026-10-31` is the merchant-zone day.')).toBe(0);
    expect(hits('From `bench/results/latest.json`: run 2026-11-27 06:01 UTC, commit b5f50bc.', 'docs/benchmarks.md')).toBe(0);
  });
});
