'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { payoutSummaryQuery, payoutsQuery } from '@/console/browser/queries/queries';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { countOf, createdByLabel, formatMoney } from '@/lib/format';
import type { List, Payout } from '@/lib/contract';
import { ErrorText } from './error-text';
import { RetryingNote } from './intent-status';
import { EmptyState } from './empty-state';
import { DataTable } from './data-table';
import { Time } from './time-zone';

type Decision = { decision: 'approve' | 'reject'; ids?: string[]; batch_id?: string; reason?: string };

const WAITING = { status: 'awaiting_approval' as const };

/**
 * The payouts waiting for approval: their count and total, who asked for each,
 * and (with payouts:approve) approve or reject the chosen ones or a whole batch.
 * Each decision is one intent with one idempotency key: a double click or a lost
 * answer acts once. A key never decides its own payouts (the API refuses it too).
 */
export function ApprovalsPanel({
  canApprove,
  ownKeyId,
  retentionSeconds,
}: {
  canApprove: boolean;
  ownKeyId: string;
  retentionSeconds: number;
}) {
  const list = useQuery(payoutsQuery('awaiting_approval', 100));
  const summary = useQuery(payoutSummaryQuery(WAITING));
  const intent = useIdempotentMutation<Decision, List<Payout>>({
    path: '/api/approvals',
    storageKey: 'console.approvals-intent',
    invalidates: [consoleKeys.payouts.all(), consoleKeys.balance()],
    retentionSeconds,
  });
  const [selected, setSelected] = useState<{ ids: string[]; batchId?: string }>({ ids: [] });
  const [rejecting, setRejecting] = useState(false);
  // Approving sends money: the first click shows what would go (count, total, accounts), the second sends it.
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const { mutation } = intent;
  const payouts = list.data?.data ?? [];
  const decidable = payouts.filter((p) => p.created_by?.key_id !== ownKeyId);
  const batches = [...new Set(decidable.map((p) => p.batch_id).filter((b): b is string => b !== null))];
  const chosen = payouts.filter((p) => selected.ids.includes(p.id));
  const chosenTotal = chosen.reduce((sum, p) => sum + p.amount, 0);

  const toggle = (id: string) => {
    setConfirming(false);
    setSelected((s) => ({ ids: s.ids.includes(id) ? s.ids.filter((x) => x !== id) : [...s.ids, id] }));
  };
  const target = (): Pick<Decision, 'ids' | 'batch_id'> => (selected.batchId ? { batch_id: selected.batchId } : { ids: selected.ids });
  const done = () => {
    intent.reset();
    setSelected({ ids: [] });
    setRejecting(false);
    setConfirming(false);
    setReason('');
  };
  const reject = () => {
    if (reason.trim() === '') return setReasonError('Say why these payouts are rejected: the requester sees the reason.');
    setReasonError(null);
    intent.send({ decision: 'reject', ...target(), reason: reason.trim() });
  };
  const busy = mutation.isPending;

  return (
    <div>
      <p data-testid="approvals-summary" aria-live="polite">
        {!summary.data
          ? 'Counting the payouts that wait…'
          : summary.data.count === 0
            ? // The list below says there is none: no "0 payouts wait" above it.
              null
            : `${countOf(summary.data.count, 'payout waits', 'payouts wait')} for approval, ${formatMoney(summary.data.total_amount, summary.data.currency)} in all.`}
      </p>
      {summary.data && payouts.length > 0 && summary.data.count > payouts.length && (
        // The list is one page; say so rather than let a long queue look shorter than it is.
        <p data-testid="approvals-shown">
          Showing the newest {payouts.length} of {summary.data.count}: decided ones leave the list and the next ones take their place.
        </p>
      )}
      {list.isError && (
        <p className="error" role="alert">
          The payouts could not be loaded: <ErrorText error={list.error} />
        </p>
      )}
      {list.isSuccess && payouts.length === 0 && (
        <EmptyState>
          <p>No payout is waiting for approval.</p>
        </EmptyState>
      )}
      {payouts.length > 0 && (
        <DataTable
          label="Payouts waiting for approval"
          rows={payouts}
          rowKey={(p) => p.id}
          rowProps={(p) => ({ 'data-testid': 'approval-row', 'data-payout-id': p.id })}
          columns={[
            canApprove && {
              header: 'Choose',
              cell: (p) =>
                p.created_by?.key_id === ownKeyId ? (
                  <span className="muted">Yours: another key decides</span>
                ) : (
                  <input
                    type="checkbox"
                    aria-label={`Choose the payout of ${formatMoney(p.amount, p.currency)} to ${p.account_holder_name ?? 'unknown holder'}`}
                    checked={selected.ids.includes(p.id)}
                    disabled={busy}
                    onChange={() => toggle(p.id)}
                  />
                ),
            },
            { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency), numeric: true },
            {
              header: 'Account holder',
              cell: (p) => p.account_holder_name ?? <span className="error">No such account</span>,
              testId: 'holder-name',
            },
            { header: 'Bank', cell: (p) => <span className="nowrap">{`${p.bank_code} •••• ${p.account_last4}`}</span> },
            { header: 'Requested by', cell: (p) => createdByLabel(p.created_by), testId: 'requested-by' },
            { header: 'Requested', cell: (p) => <Time iso={p.created_at} /> },
            { header: 'Expires', cell: (p) => (p.approval_expires_at ? <Time iso={p.approval_expires_at} /> : '—') },
            {
              header: 'Payout',
              cell: (p) => (
                <>
                  <Link href={`/payouts/${p.id}`}>Details</Link>
                  {p.batch_id && <span className="muted"> (batch {p.batch_id})</span>}
                </>
              ),
            },
          ]}
        />
      )}
      {canApprove && payouts.length > 0 && !mutation.isSuccess && (
        <div className="approvals-actions">
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => (setConfirming(false), setSelected({ ids: decidable.map((p) => p.id) }))}
          >
            Choose all
          </button>
          {batches.map((b) => (
            <button
              key={b}
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => (
                setConfirming(false),
                setSelected({ ids: decidable.filter((p) => p.batch_id === b).map((p) => p.id), batchId: b })
              )}
            >
              Choose batch {b}
            </button>
          ))}
          <p role="status" data-testid="selection">
            {chosen.length === 0
              ? 'Nothing chosen.'
              : `${countOf(chosen.length, 'payout')} chosen, ${formatMoney(chosenTotal, chosen[0]!.currency)}${selected.batchId ? ` (the whole batch ${selected.batchId})` : ''}.`}
          </p>
          {!confirming && (
            <button type="button" disabled={busy || chosen.length === 0} onClick={() => (setRejecting(false), setConfirming(true))}>
              Approve {chosen.length > 0 ? chosen.length : ''}
            </button>
          )}
          {confirming && chosen.length > 0 && (
            <ApproveConfirm
              payouts={chosen}
              total={chosenTotal}
              batchId={selected.batchId}
              busy={busy}
              onConfirm={() => intent.send({ decision: 'approve', ...target() })}
              onBack={() => setConfirming(false)}
            />
          )}
          {confirming ? null : !rejecting ? (
            <button type="button" className="secondary" disabled={busy || chosen.length === 0} onClick={() => setRejecting(true)}>
              Reject…
            </button>
          ) : (
            <>
              <div className="field">
                <label htmlFor="reject-reason">Reason for rejecting</label>
                <textarea
                  id="reject-reason"
                  value={reason}
                  maxLength={500}
                  onChange={(e) => setReason(e.target.value)}
                  aria-invalid={reasonError ? true : undefined}
                  aria-describedby={reasonError ? 'reject-reason-error' : undefined}
                />
                {reasonError && (
                  <span id="reject-reason-error" className="error">
                    {reasonError}
                  </span>
                )}
              </div>
              <button type="button" disabled={busy || chosen.length === 0} onClick={reject}>
                Reject {chosen.length}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setRejecting(false)}>
                Cancel
              </button>
            </>
          )}
        </div>
      )}
      {busy &&
        (intent.outcomeUnknown ? (
          <RetryingNote failureCount={mutation.failureCount} />
        ) : (
          <p className="muted" role="status">
            Sending…
          </p>
        ))}
      {mutation.isError && (
        <div role="alert">
          <p className={intent.outcomeUnknown ? 'warning' : 'error'} data-testid="decision-refused">
            {intent.outcomeUnknown ? 'Outcome unknown: ' : 'Nothing was changed: '}
            <ErrorText error={mutation.error} />
          </p>
          {intent.outcomeUnknown ? (
            <button type="button" onClick={() => mutation.variables && intent.send(mutation.variables)}>
              Check again
            </button>
          ) : (
            <button type="button" onClick={done}>
              Start over
            </button>
          )}
        </div>
      )}
      {mutation.isSuccess && (
        <div className="success" role="status" data-testid="decision-done">
          <p>
            {countOf(mutation.data.data.length, 'payout')}{' '}
            {mutation.data.data[0]?.status === 'rejected'
              ? 'rejected: the money is back in your available balance.'
              : `approved: ${mutation.data.data.length === 1 ? 'on its way' : 'on their way'} to the bank.`}
          </p>
          <button type="button" onClick={done}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}

/** What approving would send, asked once more: how many payouts, how much in all, to which accounts. */
function ApproveConfirm({
  payouts,
  total,
  batchId,
  busy,
  onConfirm,
  onBack,
}: {
  payouts: Payout[];
  total: number;
  batchId?: string;
  busy: boolean;
  onConfirm(): void;
  onBack(): void;
}) {
  const currency = payouts[0]!.currency;
  const shown = payouts.slice(0, 10);
  return (
    <div className="confirm-step" role="group" aria-labelledby="approve-confirm-heading" data-testid="approve-confirm">
      <h3 id="approve-confirm-heading">
        Approve {countOf(payouts.length, 'payout')}, {formatMoney(total, currency)} in all?
      </h3>
      <p>
        Approving sends the money to the bank at once{batchId ? ` (every waiting payout of batch ${batchId})` : ''}; it cannot be called
        back.
      </p>
      <ul data-testid="approve-confirm-accounts">
        {shown.map((p) => (
          <li key={p.id}>
            {formatMoney(p.amount, p.currency)} to {p.account_holder_name ?? 'an unknown holder'},{' '}
            <span className="nowrap">{`${p.bank_code} •••• ${p.account_last4}`}</span>
          </li>
        ))}
        {payouts.length > shown.length && <li>and {countOf(payouts.length - shown.length, 'more payout', 'more payouts')}</li>}
      </ul>
      <div className="actions">
        <button type="button" disabled={busy} onClick={onConfirm} autoFocus>
          Yes, approve and send {formatMoney(total, currency)}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={onBack}>
          Go back
        </button>
      </div>
    </div>
  );
}
