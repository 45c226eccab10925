'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type ChangeEvent } from 'react';
import { parseBatchCsv, type CsvRow } from '@/console/browser/batch-csv';
import { consoleFetch } from '@/console/browser/queries/console-fetch';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useHydrated } from '@/console/browser/use-hydrated';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import type { BatchItem, PayoutBatch } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { DataTable } from './data-table';
import { ErrorText } from './error-text';
import { RetryingNote } from './intent-status';
import { StaleIntent } from './stale-intent';

/**
 * A CSV of payouts: every row checked before anything is sent, then sent as one
 * batch under one idempotency key (a double click or a lost response sends one
 * batch), then followed until each payout is paid or failed.
 */
export function BatchPayoutPanel({ currency, retentionSeconds }: { currency: string; retentionSeconds: number }) {
  const hydrated = useHydrated();
  const [file, setFile] = useState<{ name: string; rows: CsvRow[]; error?: string } | null>(null);
  const intent = useIdempotentMutation<{ payouts: BatchItem[] }, PayoutBatch>({
    path: '/api/payout-batches',
    storageKey: 'console.batch-intent',
    invalidates: [consoleKeys.balance(), consoleKeys.payouts.all()],
    retentionSeconds,
  });
  const { mutation } = intent;
  const batchId = mutation.data?.id;
  const batch = useQuery({
    queryKey: consoleKeys.payoutBatches.detail(batchId ?? ''),
    queryFn: () => consoleFetch<PayoutBatch>(`/api/payout-batches/${batchId}`),
    enabled: Boolean(batchId),
    refetchInterval: (q) => (q.state.data?.status === 'completed' ? false : 1000),
  });

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const { rows, fileError } = parseBatchCsv(await chosen.text());
    setFile({ name: chosen.name, rows, error: fileError });
  }

  const valid = file?.rows.filter((r) => r.item) ?? [];
  const invalid = file?.rows.filter((r) => r.error) ?? [];
  // Each ready row's holder, looked up before anything is sent; an account the bank does not know blocks the batch.
  const holders = useQuery({
    queryKey: ['batch-holders', file?.name, valid.map((r) => r.line)],
    queryFn: () =>
      consoleFetch<{ data: { status: string; account_holder_name: string | null; failure_code: string | null }[] }>(
        '/api/bank-accounts/validate-many',
        {
          method: 'POST',
          body: { accounts: valid.map((r) => ({ bank_code: r.item!.bank_code, account_number: r.item!.account_number })) },
        },
      ),
    enabled: valid.length > 0 && !file?.error,
    staleTime: Infinity,
    retry: 1,
  });
  const holderOf = new Map(valid.map((r, i) => [r.line, holders.data?.data[i]]));
  const unknownAccounts = valid.filter((r) => holderOf.get(r.line)?.status === 'invalid').length;
  const holderCell = (line: number, ready: boolean) => {
    if (!ready) return '';
    const holder = holderOf.get(line);
    if (holder === undefined) return holders.isError ? 'Not looked up' : 'Looking up…';
    if (holder.status === 'invalid') return <span className="error">No such account ({holder.failure_code})</span>;
    return holder.account_holder_name;
  };
  const total = valid.reduce((sum, r) => sum + r.item!.amount, 0);
  const current = batch.data ?? mutation.data;

  if (intent.staleIntent) {
    return <StaleIntent what="A batch" checkIn="the payouts list" onDismiss={intent.dismissStale} />;
  }

  if (current) {
    return (
      <div className="success" role="status" data-testid="batch-result">
        <p>
          Batch {current.id}: {current.payout_count} payouts, {formatMoney(current.total_amount, currency)}, {current.status}.
          {mutation.data?.replayed ? ' Replayed: an earlier attempt had already sent this batch; nothing was sent twice.' : ''}
        </p>
        <p data-testid="batch-counts">
          Pending {current.counts.pending} · paid {current.counts.paid} · failed {current.counts.failed}
          {current.counts.awaiting_approval > 0 && ` · awaiting approval ${current.counts.awaiting_approval}`}
          {current.counts.rejected > 0 && ` · rejected ${current.counts.rejected}`}
          {current.counts.expired > 0 && ` · expired ${current.counts.expired}`}
        </p>
        <p>
          Each payout settles on its own: see them in <Link href="/payouts">Payouts</Link>.
        </p>
        <button type="button" onClick={() => (intent.reset(), setFile(null))}>
          New batch
        </button>
      </div>
    );
  }

  return (
    <div>
      <label>
        CSV file (amount,bank_code,account_number,reference)
        <input type="file" accept=".csv,text/csv" onChange={choose} disabled={!hydrated || mutation.isPending} />
      </label>
      {file?.error && (
        <p className="error" role="alert">
          {file.error}
        </p>
      )}
      {file && !file.error && (
        <>
          <p role="status" data-testid="batch-summary">
            {file.name}: {file.rows.length} rows, {valid.length} ready ({formatMoney(total, currency)}), {invalid.length} with errors.
          </p>
          <DataTable
            label="Rows to send"
            rows={file.rows}
            rowKey={(r) => String(r.line)}
            rowProps={(r) => ({ 'data-testid': 'batch-row', 'data-valid': r.item ? 'true' : 'false' })}
            columns={[
              { header: 'Line', cell: (r) => r.line },
              { header: 'Amount', cell: (r) => (r.item ? formatMoney(r.item.amount, currency) : r.shown.amount) },
              { header: 'Bank', cell: (r) => r.shown.bank_code },
              { header: 'Account', cell: (r) => `•••• ${r.shown.account_last4}` },
              { header: 'Reference', cell: (r) => r.shown.reference },
              { header: 'Account holder', cell: (r) => holderCell(r.line, !!r.item), testId: 'batch-holder' },
              { header: 'Check', cell: (r) => <span className={r.error ? 'error' : undefined}>{r.error ?? 'OK'}</span> },
            ]}
          />
          {mutation.isError && (
            <p className={intent.outcomeUnknown ? 'warning' : 'error'} role="alert">
              {intent.outcomeUnknown ? 'Outcome unknown: ' : 'The batch was refused: '}
              <ErrorText error={mutation.error} />
            </p>
          )}
          <button
            type="button"
            disabled={
              !hydrated || invalid.length > 0 || valid.length === 0 || mutation.isPending || !holders.isSuccess || unknownAccounts > 0
            }
            onClick={() => intent.send({ payouts: valid.map((r) => r.item!) })}
          >
            {mutation.isPending ? 'Sending…' : `Send ${valid.length} payouts`}
          </button>
          {mutation.isPending && intent.outcomeUnknown && <RetryingNote failureCount={mutation.failureCount} />}
          {invalid.length > 0 && (
            <p className="muted">Fix the rows with errors and choose the file again: nothing is sent until every row is right.</p>
          )}
          {unknownAccounts > 0 && (
            <p className="error" data-testid="batch-unknown-accounts">
              {unknownAccounts} {unknownAccounts === 1 ? 'row pays an account' : 'rows pay accounts'} the bank does not know: fix{' '}
              {unknownAccounts === 1 ? 'it' : 'them'} and choose the file again.
            </p>
          )}
          {holders.isError && (
            <p className="error" role="alert">
              The accounts could not be looked up: <ErrorText error={holders.error} />
            </p>
          )}
        </>
      )}
    </div>
  );
}
