// The merchant's time zone in the console: Settings changes it, every page names it and shows its times in it,
// and a date filter picks that zone's day. Each test has a merchant of its own: the zone is the merchant's.
import type { APIRequestContext, Page } from '@playwright/test';
import { dayInZone } from '@/lib/contract/time-zone';
import { formatTime } from '@/lib/format';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { startSession } from './helpers';

async function freshMerchant(page: Page, request: APIRequestContext, name: string) {
  const merchant = createMerchant(`${name} ${Date.now()}`, 5_000_000);
  await startSession(page, merchant.secretKey);
  return merchantApi(request, merchant);
}

test("Settings changes the zone: a payout's time moves to it and every page names it", async ({ page, request }) => {
  const call = await freshMerchant(page, request, 'Zone settings');
  // Server-rendered and hydrated markup format alike: React reports no mismatch.
  const mismatches: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && /hydrat|#418|#425/i.test(m.text()) && mismatches.push(m.text())));
  page.on('pageerror', (e) => void (/hydrat|#418|#425/i.test(e.message) && mismatches.push(e.message)));
  const payout = await call({ action: 'withdraw', amount: 12_000, bank_code: 'BCA', account_number: '1234567890' }, `tz-${Date.now()}`);
  await page.goto(`/payouts/${payout.id}`);
  await expect(page.getByTestId('time-zone')).toHaveText('Times in WIB (Asia/Jakarta)');
  await expect(page.getByTestId('timeline-created')).toContainText(formatTime(payout.created_at, 'Asia/Jakarta'));

  await page.goto('/settings');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue('Asia/Jakarta');
  // Not a zone: refused at the field before anything is sent.
  await zone.fill('Mars/Olympus_Mons');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#settings-time-zone-error')).toHaveText('Choose a time zone from the list, such as Asia/Jakarta.');

  await zone.fill('Asia/Kathmandu');
  await page.getByLabel('Low-balance alert below (IDR)').fill('250000');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  // The page is rendered again in the new zone: its shell names it at once.
  await expect(page.getByTestId('time-zone')).toHaveText('Times in GMT+5:45 (Asia/Kathmandu)');
  await expect(page.getByTestId('settings-now')).toContainText('an alert when the available balance falls below IDR 250,000');
  expect(await call({ action: 'get_account_settings' })).toEqual({
    object: 'account_settings',
    time_zone: 'Asia/Kathmandu',
    low_balance_threshold: 250_000,
  });

  await page.goto(`/payouts/${payout.id}`);
  await expect(page.getByTestId('time-zone')).toHaveText('Times in GMT+5:45 (Asia/Kathmandu)');
  await expect(page.getByTestId('timeline-created')).toContainText(formatTime(payout.created_at, 'Asia/Kathmandu'));
  // The list (a client component after hydration) agrees with the server-rendered page.
  await page.goto('/payouts');
  await expect(page.locator(`[data-payout-id="${payout.id}"]`)).toContainText(formatTime(payout.created_at, 'Asia/Kathmandu'));
  await page.goto('/balance');
  await expect(page.locator('th', { hasText: 'Day (GMT+5:45)' })).toHaveCount(1);
  expect(mismatches).toEqual([]);
});

test("a date filter picks the day of the merchant's zone, not UTC's", async ({ page, request }) => {
  const call = await freshMerchant(page, request, 'Zone filter');
  // A zone whose today is not UTC's today at this hour: 11 hours behind in the UTC morning, 14 ahead after it.
  const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
  await call({ action: 'update_account_settings', time_zone: zone }, `tz-zone-${Date.now()}`);
  const payout = await call({ action: 'withdraw', amount: 13_000, bank_code: 'BNI', account_number: '1234567890' }, `tz-${Date.now()}`);
  const today = dayInZone(Date.now(), zone);
  const utcToday = new Date().toISOString().slice(0, 10);
  expect(today).not.toBe(utcToday);

  await page.goto(`/payouts?from=${today}&to=${today}`);
  await expect(page.getByTestId('payout-days-hint')).toContainText(zone);
  await expect(page.locator(`[data-payout-id="${payout.id}"]`)).toBeVisible();
  // UTC's today is another day of this zone: the payout made just now is not in it.
  await page.goto(`/payouts?from=${utcToday}&to=${utcToday}`);
  await expect(page.getByTestId('empty-state')).toContainText('No payouts match this filter');
});
