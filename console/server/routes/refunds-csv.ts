import 'server-only';
import Papa from 'papaparse';
import type { Refund } from '../../../lib/contract';
import { createdByLabel } from '../../../lib/format';
import type { MerchantApi } from '../upstream/merchant-api';
import type { RefundFilter } from '../../browser/refund-view';
import { csvStream, cursorPages } from './csv-stream';

export const REFUND_CSV_COLUMNS = [
  'id',
  'created_at',
  'amount',
  'currency',
  'status',
  'checkout_session_id',
  'reason',
  'failure_code',
  'settled_at',
  'created_by',
] as const;

const PAGE_SIZE = 100;

/** Every refund of the filter, newest first, one cursor page at a time. */
export const refundPages = (api: MerchantApi, filter: RefundFilter) =>
  cursorPages(async (after) => (await api.listRefunds({ ...filter, limit: PAGE_SIZE, ...(after ? { starting_after: after } : {}) })).data);

/** As the payouts' CSV: amounts as exact integers of the smallest unit, codes as the API gives them, formula-like cells neutralised. */
export function refundsCsv(rows: Refund[], header = true): string {
  return Papa.unparse(
    {
      fields: [...REFUND_CSV_COLUMNS],
      data: rows.map((r) => [
        r.id,
        r.created_at,
        String(r.amount),
        r.currency,
        r.status,
        r.checkout_session_id,
        r.reason ?? '',
        r.failure_code ?? '',
        r.settled_at ?? '',
        r.created_by ? createdByLabel(r.created_by) : '',
      ]),
    },
    { escapeFormulae: true, header },
  );
}

export const refundsCsvStream = (pages: AsyncIterator<Refund[]>) => csvStream(pages, refundsCsv);
