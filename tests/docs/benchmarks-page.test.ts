// docs/benchmarks.md is the results files rendered, never edited by hand: it is exactly what the generator
// writes from the committed bench/results/ (npx tsx bench/write-benchmarks-md.ts rewrites it).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE, benchmarksPage } from '../../bench/write-benchmarks-md';

describe('docs/benchmarks.md', () => {
  const page = fs.readFileSync(PAGE, 'utf8');

  it('is what bench/write-benchmarks-md.ts writes from bench/results/', () => {
    expect(page).toBe(benchmarksPage());
  });

  it('names the machine and the commit of each run, and judges every target with its margin', () => {
    expect(page).toMatch(/From `bench\/results\/latest\.json`: run .+, commit \w+; \d+ cores \(.+\), \d+ GiB, Node v\d+.*, PostgreSQL \d+/);
    const verdicts = page.split('\n').filter((l) => /\| (met|NOT met)/.test(l));
    expect(verdicts.length).toBeGreaterThan(10);
    for (const line of verdicts.filter((l) => l.startsWith('| ') && l.split('|').length === 7))
      expect(line).toMatch(/\| (met|NOT met), [\d.,]+\S* .*(above|under|short|over) \|$/);
  });

  it("reports the bytes per settled payout and the storage case's HOT share without a target; settlement's HOT share against 90%", () => {
    for (const figure of ['bytes per settled payout, events within their retention', 'bytes per settled payout, events purged', 'HOT'])
      for (const line of page.split('\n').filter((l) => l.includes(figure) && l.startsWith('| storage')))
        expect(line).toMatch(/\| none: reported \| {2}\|$/);
    for (const line of page.split('\n').filter((l) => l.includes('HOT') && l.startsWith('| settlement')))
      expect(line).toMatch(/\| ≥ 90% \| (met|NOT met)/);
    expect(page).not.toMatch(/1,250|≤ 800\b/);
  });

  it("judges the statement's CSV rate of each PostgreSQL mix and size against 10,000 lines/s, the embedded size not at all", () => {
    const lines = page.split('\n').filter((l) => l.startsWith("The statement's CSV streamed"));
    expect(lines.length).toBe(page.split('\n').filter((l) => /^Volume, (every|half)/.test(l)).length);
    for (const line of lines)
      for (const [, rate, verdict] of line.matchAll(/payouts ([\d,]+) lines\/s, (met|NOT met)/g))
        expect([rate, verdict]).toEqual([rate, Number(rate!.replace(/,/g, '')) >= 10_000 ? 'met' : 'NOT met']);
    expect(lines.join('\n').match(/lines\/s, (met|NOT met)/g)?.length).toBe(lines.length * 2);
  });
});
