// The project's own documentation as the docs tests read it: README.md and docs/*.md, with their code taken out
// where a test is about prose (a date inside an example command or a JSON answer is data, not a diary).
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const DOCS = path.join(ROOT, 'docs');

/** README.md and every docs/*.md, as paths relative to the repository. */
export const documentationPages = (): string[] => [
  'README.md',
  ...fs
    .readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

export const readPage = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8');

/** The text without fenced code blocks and inline code spans (each replaced by a space, lines kept). */
export function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`]*`/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export const headingAnchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

export function anchorsOf(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```/gm, '').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((h) => headingAnchor(h.replace(/^#+ /, ''))));
}
