import { expect, test } from '@playwright/test';
import { ACTION_NAMES } from '@/lib/contract';
import { BASE_URL } from './helpers';

test('/docs/api renders the OpenAPI document with Redoc from our own origin, every action shown, under the CSP', async ({ page }) => {
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (req) => {
    // Our origin, its blob: URLs (Redoc's search worker) and data: URLs; nothing from another host.
    if (![BASE_URL, `blob:${BASE_URL}`, 'data:'].some((own) => req.url().startsWith(own))) foreign.push(req.url());
  });

  const res = await page.goto('/docs/api');
  expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await expect(page.getByRole('heading', { name: /Merchant payment API/ })).toBeVisible();
  await expect(page.getByText('Error codes').or(page.getByText('idempotency_request_in_progress').first())).toBeVisible();

  // The operation's table names every action; the request body's union offers each of them.
  for (const name of ACTION_NAMES) await expect(page.getByRole('cell', { name, exact: true }).first()).toBeVisible();
  const union = page.locator('select, [role="listbox"], [role="option"]');
  expect(await union.count()).toBeGreaterThan(0);
  const options = (await page.locator('option, [role="option"]').allTextContents()).map((t) => t.trim());
  for (const name of ACTION_NAMES) expect(options).toContain(name);

  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});
