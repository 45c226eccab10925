// The dark scheme swaps colour variables and nothing else. tests/e2e/responsive-a11y.spec.ts relies on
// it: it checks each page's layout and every axe rule at both widths, then only the colour rules in the
// dark scheme, at one width per page (the widths taking turns from page to page).
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-files';

/** The declarations inside every `@media (prefers-color-scheme: dark)` block of a stylesheet. */
function darkDeclarations(css: string): string[] {
  const found: string[] = [];
  postcss.parse(css).walkAtRules('media', (media) => {
    if (/prefers-color-scheme:\s*dark/.test(media.params)) media.walkDecls((d) => void found.push(`${d.prop}: ${d.value}`));
  });
  return found;
}

describe('the dark scheme', () => {
  it('is declared in app/globals.css only, and only as colour variables', () => {
    const users = sourceFiles(['app', 'lib', 'console'], /\.(css|tsx?)$/).filter((f) => readSource(f).includes('prefers-color-scheme'));
    expect(users).toEqual(['app/globals.css']);
    const declarations = darkDeclarations(readSource('app/globals.css'));
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.filter((d) => !/^--[a-z0-9-]+:\s*(#[0-9a-f]{3,8}|rgba?\([^)]*\))$/i.test(d))).toEqual([]);
  });

  it('check finds a declaration that could move the layout', () => {
    const css = '@media (prefers-color-scheme: dark) { :root { --fg: #fff; } .card { padding: 2rem; } }';
    expect(darkDeclarations(css)).toEqual(['--fg: #fff', 'padding: 2rem']);
  });
});
