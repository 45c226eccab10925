// The dark scheme swaps colour variables and nothing else. tests/e2e/responsive-a11y.spec.ts relies on
// it: it checks each page's layout and every axe rule once, then only the colour rules in the dark scheme.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(__dirname, '../..');
const files = (dir: string): string[] =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? files(rel) : /\.(css|tsx?)$/.test(e.name) ? [rel] : [];
  });

/** The declarations inside every `@media (prefers-color-scheme: dark)` block of a stylesheet. */
function darkDeclarations(css: string): string[] {
  const found: string[] = [];
  const opening = /@media\s*\(\s*prefers-color-scheme:\s*dark\s*\)\s*\{/g;
  for (let m = opening.exec(css); m; m = opening.exec(css)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < css.length && depth > 0; i++) depth += css[i] === '{' ? 1 : css[i] === '}' ? -1 : 0;
    const body = css.slice(start, i - 1).replace(/\/\*[\s\S]*?\*\//g, '');
    for (const block of body.matchAll(/\{([^{}]*)\}/g)) found.push(...(block[1] ?? '').split(';').map((d) => d.trim()).filter(Boolean));
  }
  return found;
}

describe('the dark scheme', () => {
  it('is declared in app/globals.css only, and only as colour variables', () => {
    const users = ['app', 'lib'].flatMap(files).filter((f) => fs.readFileSync(path.join(root, f), 'utf8').includes('prefers-color-scheme'));
    expect(users).toEqual(['app/globals.css']);
    const declarations = darkDeclarations(fs.readFileSync(path.join(root, 'app/globals.css'), 'utf8'));
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.filter((d) => !/^--[a-z0-9-]+:\s*(#[0-9a-f]{3,8}|rgba?\([^)]*\))$/i.test(d))).toEqual([]);
  });

  it('check finds a declaration that could move the layout', () => {
    const css = '@media (prefers-color-scheme: dark) { :root { --fg: #fff; } .card { padding: 2rem; } }';
    expect(darkDeclarations(css)).toEqual(['--fg: #fff', 'padding: 2rem']);
  });
});
