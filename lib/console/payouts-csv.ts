import 'server-only';
import Papa from 'papaparse';
import type { Payout } from '../contract';
import { createdByLabel } from '../format';
import type { MerchantApi } from '../upstream/merchant-api';
import type { PayoutFilter } from '../client/payout-view';

import { EXPORT_MAX_ROWS } from '../client/export-limits';

export { EXPORT_MAX_ROWS };

export const PAYOUT_CSV_COLUMNS = ['id', 'created_at', 'amount', 'currency', 'bank_code', 'account_last4', 'status', 'failure_code', 'reference', 'created_by'] as const;

/** Every payout of the filter, newest first, page after page of 100, up to `maxRows`. */
export async function payoutsForExport(api: MerchantApi, filter: PayoutFilter, maxRows = EXPORT_MAX_ROWS): Promise<{ rows: Payout[]; truncated: boolean }> {
  const rows: Payout[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (await api.listPayouts({ ...filter, limit: 100, ...(after ? { starting_after: after } : {}) })).data;
    rows.push(...page.data);
    if (rows.length >= maxRows) return { rows: rows.slice(0, maxRows), truncated: page.has_more || rows.length > maxRows };
    if (!page.has_more) return { rows, truncated: false };
    after = page.data.at(-1)!.id;
  }
}

/**
 * The rows as CSV: amounts as exact integers of the smallest unit, only the
 * account's last four digits. Cells that a spreadsheet would run as a formula
 * (a reference starting with =, +, - or @) are prefixed with ' (papaparse's escapeFormulae).
 */
export function payoutsCsv(rows: Payout[]): string {
  return Papa.unparse(
    {
      fields: [...PAYOUT_CSV_COLUMNS],
      data: rows.map((p) => [
        p.id, p.created_at, String(p.amount), p.currency, p.bank_code, p.account_last4, p.status, p.failure_code ?? '', p.reference ?? '',
        p.created_by ? createdByLabel(p.created_by) : '',
      ]),
    },
    { escapeFormulae: true },
  );
}
