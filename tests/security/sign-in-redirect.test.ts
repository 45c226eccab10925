// Signed out, every page under app/(console) redirects to sign-in and keeps where it pointed; the
// list proxy.ts matches is the one read from the route tree, so a page tree added later is covered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PAGE_TREES } from '@/console/console-pages';
import { proxy } from '@/proxy';
import { consolePageTrees } from '@/scripts/generated-files';

const ORIGIN = 'http://localhost:3000';

function open(pathAndQuery: string, cookie?: string) {
  return proxy(new NextRequest(`${ORIGIN}${pathAndQuery}`, cookie ? { headers: { cookie } } : undefined));
}

describe('sign-in redirect', () => {
  const trees = consolePageTrees();

  it('the committed list is every page tree under app/(console) (run `npm run generate` after adding one)', () => {
    expect(trees.length).toBeGreaterThanOrEqual(11);
    expect([...CONSOLE_PAGE_TREES]).toEqual(trees);
  });

  it.each(trees)('signed out, a deep link into %s goes to /login?next=… with its path and query', (tree) => {
    for (const target of [tree, `${tree}/xyz_123?from=email&b=2`]) {
      const res = open(target);
      expect(res.status).toBe(307);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin).toBe(ORIGIN);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('next')).toBe(target);
    }
  });

  it.each(trees)('with a session cookie, %s is served (the page itself verifies the session)', (tree) => {
    for (const cookie of ['console_session=x', '__Host-console_session=x']) {
      const res = open(`${tree}/a`, cookie);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('x-middleware-next')).toBe('1');
    }
  });

  it.each(['/login', '/checkout/cs_abc', '/docs/api', '/', '/dashboardx', '/payouts-old'])(
    '%s is not a console page and is not redirected',
    (target) => {
      expect(open(target).headers.get('location')).toBeNull();
    },
  );

  it('reads page trees from the file system: a new one is listed, a folder without a page is not', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'console-tree-'));
    const group = path.join(root, 'app', '(console)');
    fs.mkdirSync(path.join(group, 'disputes', '[id]'), { recursive: true });
    fs.writeFileSync(path.join(group, 'disputes', '[id]', 'page.tsx'), '');
    fs.mkdirSync(path.join(group, 'empty'), { recursive: true });
    fs.writeFileSync(path.join(group, 'layout.tsx'), '');
    expect(consolePageTrees(root)).toEqual(['/disputes']);
    fs.mkdirSync(path.join(group, '(nested)', 'x'), { recursive: true });
    fs.writeFileSync(path.join(group, '(nested)', 'x', 'page.tsx'), '');
    expect(() => consolePageTrees(root)).toThrow(/fixed first segment/);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
