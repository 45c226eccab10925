import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { PAGE_SIZE } from '../../console/browser/queries/list-pages';
import { api, startSession } from './helpers';

type Listed = { id: string; status: string };

/** Everything the API lists for `action`, newest first, every page: the ground truth. */
async function listAll(request: APIRequestContext, action: string, extra: Record<string, unknown> = {}): Promise<Listed[]> {
  const items: Listed[] = [];
  for (;;) {
    const after = items.at(-1)?.id;
    const page = await api<{ data: Listed[]; has_more: boolean }>(request, {
      action,
      limit: 100,
      ...extra,
      ...(after ? { starting_after: after } : {}),
    });
    items.push(...page.data);
    if (!page.has_more) return items;
  }
}

const shownIds = (rows: Locator, attribute: string) => rows.evaluateAll((els, a) => els.map((el) => el.getAttribute(a)), attribute);

/**
 * From the first page on: after each page the rows are exactly the next slice of `expected`
 * (one page more, in order, each once); "Load more" is there while more is left, then gone.
 */
async function loadEveryPage(page: Page, rows: Locator, attribute: string, expected: string[]) {
  const loadMore = page.getByRole('button', { name: 'Load more' });
  for (let shown = PAGE_SIZE; ; shown += PAGE_SIZE) {
    const want = expected.slice(0, shown);
    await expect(rows).toHaveCount(want.length);
    const ids = await shownIds(rows, attribute);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(want);
    if (want.length === expected.length) break;
    await loadMore.click();
  }
  await expect(loadMore).toHaveCount(0);
}

test('payouts: the first page, then "Load more" appends older pages in order until there is no more; a filter starts from its first page', async ({
  page,
  request,
}) => {
  // More than two pages of new payouts, one after the other, so their order is known.
  const created: string[] = [];
  for (let i = 0; i < 2 * PAGE_SIZE + 5; i++) {
    const payout = await api(
      request,
      { action: 'withdraw', amount: 10_000 + i, bank_code: 'BCA', account_number: '1234567890' },
      `more-${Date.now()}-${i}`,
    );
    created.push(payout.id);
  }
  const expected = (await listAll(request, 'list_payouts')).map((p) => p.id);
  expect(expected.slice(0, created.length)).toEqual([...created].reverse()); // newest first

  await startSession(page);
  await page.goto('/payouts');
  const rows = page.getByTestId('payout-row');
  const loadMore = page.getByRole('button', { name: 'Load more' });

  // While the next page is on its way, the button cannot send it again.
  await expect(rows).toHaveCount(PAGE_SIZE);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const nextPage = (url: URL) => url.pathname === '/api/payouts' && url.searchParams.has('starting_after');
  await page.route(nextPage, async (route) => {
    await held;
    await route.continue();
  });
  await loadMore.click();
  await expect(loadMore).toBeDisabled();
  release();
  await expect(rows).toHaveCount(2 * PAGE_SIZE);
  await page.unroute(nextPage);

  await page.reload();
  await loadEveryPage(page, rows, 'data-payout-id', expected);

  // Once the new payouts are paid there are more than two pages of paid ones.
  await expect
    .poll(async () => (await listAll(request, 'list_payouts', { status: 'paid' })).filter((p) => created.includes(p.id)).length)
    .toBe(created.length);
  const status = page.getByLabel('Status');
  await status.selectOption('paid');
  await expect(rows).toHaveCount(PAGE_SIZE);
  for (const row of await rows.all()) await expect(row).toHaveAttribute('data-status', 'paid');
  await loadMore.click();
  await expect(rows).toHaveCount(2 * PAGE_SIZE);
  // Back to every status, whose pages were all loaded before: the first page again, and again for "paid".
  await status.selectOption('all');
  await expect(rows).toHaveCount(PAGE_SIZE);
  expect(await shownIds(rows, 'data-payout-id')).toEqual(expected.slice(0, PAGE_SIZE));
  await status.selectOption('paid');
  await expect(rows).toHaveCount(PAGE_SIZE);
  await expect(loadMore).toBeEnabled();
});

test('checkout sessions: the first page, then "Load more" appends the older ones until there is no more', async ({ page, request }) => {
  for (let i = 0; i < PAGE_SIZE + 5; i++) {
    await api(
      request,
      { action: 'create_checkout_session', amount: 1_000 + i, description: `Load more #${i}` },
      `more-cs-${Date.now()}-${i}`,
    );
  }
  const expected = (await listAll(request, 'list_checkout_sessions')).map((s) => s.id);

  await startSession(page);
  await page.goto('/checkout-sessions');
  await loadEveryPage(page, page.getByTestId('checkout-row'), 'data-session-id', expected);
});
