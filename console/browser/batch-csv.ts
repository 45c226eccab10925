import Papa from 'papaparse';
import { batchItemSchema, describeFirstIssue, MAX_BATCH_PAYOUTS, type BatchItem } from '../../lib/contract';
import { fieldMessage } from './messages';

export interface CsvRow {
  /** Line in the file (the header is line 1). */
  line: number;
  item?: BatchItem;
  error?: string;
  /** What may be shown of the row: never the full account number. */
  shown: { amount: string; bank_code: string; account_last4: string; reference: string };
}

export const CSV_COLUMNS = ['amount', 'bank_code', 'account_number', 'reference'] as const;

/** The file the batch page offers to start from: the columns and two rows to replace (amounts in whole rupiah). */
export const BATCH_TEMPLATE_CSV = [
  CSV_COLUMNS.join(','),
  '50000,BCA,1234567890,Invoice 1001',
  '125000,BNI,9876543210,Invoice 1002',
  '',
].join('\r\n');

/**
 * A payout CSV (`amount,bank_code,account_number,reference`, header first) as
 * rows checked with the API's own item schema: each row valid, or with the error
 * that the API would give it. Parsed by papaparse (quotes, BOM, CRLF).
 */
export function parseBatchCsv(text: string): { rows: CsvRow[]; fileError?: string } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const missing = CSV_COLUMNS.slice(0, 3).filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length > 0)
    return {
      rows: [],
      fileError: `The file needs the columns ${CSV_COLUMNS.join(',')}; missing: ${missing.join(', ')}. Put them on the first line, then choose the file again.`,
    };
  if (parsed.data.length === 0)
    return {
      rows: [],
      fileError: 'The file has no payout rows: add one line per payout under the header line, then choose the file again.',
    };
  if (parsed.data.length > MAX_BATCH_PAYOUTS)
    return {
      rows: [],
      fileError: `A batch holds at most ${MAX_BATCH_PAYOUTS} payouts; this file has ${parsed.data.length}. Split it into files of ${MAX_BATCH_PAYOUTS} or fewer and send each.`,
    };
  const rows = parsed.data.map((r, i): CsvRow => {
    const amountText = (r.amount ?? '').trim().replace(/[\s,_]/g, '');
    const candidate = {
      amount: /^[0-9]{1,15}$/.test(amountText) ? Number(amountText) : amountText === '' ? undefined : NaN,
      bank_code: (r.bank_code ?? '').trim().toUpperCase(),
      account_number: (r.account_number ?? '').trim().replace(/[\s-]/g, ''),
      ...(r.reference?.trim() ? { reference: r.reference.trim() } : {}),
    };
    const shown = {
      amount: r.amount ?? '',
      bank_code: candidate.bank_code,
      account_last4: candidate.account_number.slice(-4),
      reference: candidate.reference ?? '',
    };
    const result = batchItemSchema.safeParse(candidate);
    if (result.success) return { line: i + 2, item: result.data, shown };
    // The row's first problem in the forms' words; a field without a sentence keeps the schema's.
    const issue = result.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    const input = field === 'amount' && Number.isNaN(candidate.amount) ? r.amount : candidate[field as keyof typeof candidate];
    return { line: i + 2, error: fieldMessage(field, { code: issue.code, input }) ?? describeFirstIssue(result.error).message, shown };
  });
  return { rows };
}
