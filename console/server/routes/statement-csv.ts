import 'server-only';
import Papa from 'papaparse';
import type { BalanceTransaction } from '../../../lib/contract';
import type { MerchantApi } from '../upstream/merchant-api';
import { csvStream, cursorPages } from './csv-stream';
import { isoInZone } from '../../browser/report-period';
import { balanceKindLabel } from '../../browser/labels';

export const STATEMENT_CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'kind',
  'amount',
  'currency',
  'balance_after',
  'source',
  'bank_reference',
] as const;

/** Lines per API page while exporting: memory holds one page, whatever the statement's length. */
const PAGE_SIZE = 100;

/** The statement's lines, [from, to), newest first, one cursor page at a time (list_balance_transactions). */
export const statementLinePages = (api: MerchantApi, from: string, to: string) =>
  cursorPages(
    async (after) =>
      (
        await api.listBalanceTransactions({
          created_gte: from,
          created_lt: to,
          limit: PAGE_SIZE,
          ...(after ? { starting_after: after } : {}),
        })
      ).data,
  );

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first), except a plain signed integer: a payout's -21000 stays a number. */
const FORMULA = /^(?!-?[0-9]+$)[=+\-@\t\r]/;

/**
 * Lines as CSV: times on the merchant's clock with its offset (2026-11-28T00:47:00+07:00: the day the merchant
 * booked it, and still the exact instant); amounts as plain signed integers of the smallest unit, no currency text
 * (docs/console.md, "Statements"); the type's code and its words; formula-like cells neutralised (escapeFormulae).
 */
export function statementLinesCsv(zone: string) {
  return (rows: BalanceTransaction[], header = true): string =>
    Papa.unparse(
      {
        fields: [...STATEMENT_CSV_COLUMNS],
        data: rows.map((t) => [
          t.id,
          isoInZone(t.created_at, zone),
          t.type,
          balanceKindLabel(t.type),
          String(t.amount),
          t.currency,
          String(t.balance_after),
          t.source,
          t.bank_reference ?? '',
        ]),
      },
      { escapeFormulae: FORMULA, header },
    );
}

export const statementLinesStream = (pages: AsyncIterator<BalanceTransaction[]>, zone: string) => csvStream(pages, statementLinesCsv(zone));
