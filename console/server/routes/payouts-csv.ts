import 'server-only';
import Papa from 'papaparse';
import type { Payout } from '../../../lib/contract';
import { createdByLabel } from '../../../lib/format';
import type { MerchantApi } from '../upstream/merchant-api';
import type { PayoutFilter } from '../../browser/payout-view';
import { csvStream, cursorPages } from './csv-stream';

export const PAYOUT_CSV_COLUMNS = [
  'id',
  'created_at',
  'amount',
  'currency',
  'bank_code',
  'account_last4',
  'status',
  'failure_code',
  'reference',
  'created_by',
  // Reconciliation: the bank's reference of a paid payout, when it was paid and, if the bank sent it back, when.
  'bank_reference',
  'paid_at',
  'returned_at',
] as const;

/** Payouts per API page while exporting: memory holds one page, whatever the export's length. */
export const EXPORT_PAGE_SIZE = 100;

/** Every payout of the filter, newest first, one cursor page at a time. */
export const payoutPages = (api: MerchantApi, filter: PayoutFilter, pageSize = EXPORT_PAGE_SIZE) =>
  cursorPages(async (after) => (await api.listPayouts({ ...filter, limit: pageSize, ...(after ? { starting_after: after } : {}) })).data);

/** One payout by id, as the export's only page. */
export async function* onePayout(api: MerchantApi, id: string): AsyncGenerator<Payout[]> {
  yield [(await api.getPayout(id)).data];
}

/**
 * The rows as CSV lines: amounts as exact integers of the smallest unit, only the
 * account's last four digits. Cells that a spreadsheet would run as a formula
 * (a reference starting with =, +, - or @) are prefixed with ' (papaparse's escapeFormulae).
 */
export function payoutsCsv(rows: Payout[], header = true): string {
  return Papa.unparse(
    {
      fields: [...PAYOUT_CSV_COLUMNS],
      data: rows.map((p) => [
        p.id,
        p.created_at,
        String(p.amount),
        p.currency,
        p.bank_code,
        p.account_last4,
        p.status,
        p.failure_code ?? '',
        p.reference ?? '',
        p.created_by ? createdByLabel(p.created_by) : '',
        p.bank_reference ?? '',
        p.paid_at ?? '',
        p.returned_at ?? '',
      ]),
    },
    { escapeFormulae: true, header },
  );
}

/** The whole export as a stream with no cap, one page of payouts in memory at a time (csv-stream.ts). */
export const payoutsCsvStream = (pages: AsyncIterator<Payout[]>) => csvStream(pages, payoutsCsv);
