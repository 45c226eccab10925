// The documentation holds together: every relative link resolves (to a file, and to a heading when it names
// one), docs/README.md lists every page, each page's first line says what it is for, and every setting that
// lib/config/env.ts validates is documented.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, anchorsOf, documentationPages, readPage } from './markdown';

/** Markdown links outside code: [text](target). */
function links(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('links between the pages', () => {
  for (const page of documentationPages()) {
    it(`${page}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const target of links(readPage(page))) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.resolve(path.dirname(path.join(ROOT, page)), file) : path.join(ROOT, page);
        if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    });
  }
});

/** Paths of this repository named in inline code (`lib/payments/core.ts`, `console/server/`), with a line suffix or anchor dropped. */
function repositoryPaths(markdown: string): string[] {
  const top = /^(app|bench|console|docs|lib|ops|packages|scripts|testing|tests)\//;
  return [...markdown.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/[:#].*$/, '').replace(/[.,]$/, ''))
    .filter((p) => top.test(p) && !/[*{}<>$]|\.\.\./.test(p));
}

describe('paths named in the pages', () => {
  for (const page of documentationPages()) {
    it(`${page}: every repository path in inline code exists (a move updates the docs with it)`, () => {
      const missing = repositoryPaths(readPage(page)).filter((p) => !fs.existsSync(path.join(ROOT, p)));
      expect([...new Set(missing)]).toEqual([]);
    });
  }
});

describe('docs/ by reader', () => {
  const docsPages = documentationPages().filter((p) => p.startsWith('docs/') && p !== 'docs/README.md');

  it('docs/README.md links every page of docs/', () => {
    const index = links(readPage('docs/README.md'));
    for (const page of docsPages) expect(index, page).toContain(path.basename(page));
  });

  it("each page's first line is its title, saying what it is for", () => {
    for (const page of documentationPages()) {
      const first = readPage(page).split('\n')[0]!;
      expect(first, page).toMatch(/^# \S/);
      // A bare name is not a purpose: the title goes on after a colon (the README's is the project's name).
      if (page !== 'README.md') expect(first, page).toMatch(/^# [^:]+: \S/);
    }
  });

  it('every setting lib/config/env.ts validates is documented in README.md or docs/', () => {
    const env = fs.readFileSync(path.join(ROOT, 'lib/config/env.ts'), 'utf8');
    const settings = [...env.matchAll(/^\s+([A-Z][A-Z0-9_]{2,}):/gm)].map((m) => m[1]!);
    expect(settings.length).toBeGreaterThan(20);
    const docs = documentationPages().map(readPage).join('\n');
    expect(settings.filter((name) => !new RegExp(`\\b${name}\\b`).test(docs))).toEqual([]);
  });
});
