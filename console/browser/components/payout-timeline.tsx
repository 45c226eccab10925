import Link from 'next/link';
import type { PayoutTimelineData as Timeline } from '@/console/browser/console-views';
import type { Payout } from '@/lib/contract';
import { createdByLabel, formatMoney } from '@/lib/format';
import { CopyText } from './copy-text';
import { DataTable } from './data-table';
import { Time } from './time-zone';

/** What happened to a payout, in order: created (by whom), paid or failed, where a failed amount went back, its events. */
export function PayoutTimeline({ payout: p, timeline }: { payout: Payout; timeline: Timeline }) {
  const { reversal, events } = timeline;
  return (
    <section className="card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <ol className="timeline">
        <li data-testid="timeline-created">
          <h3>Created</h3>
          <p>
            <Time iso={p.created_at} /> by {createdByLabel(p.created_by)}: {formatMoney(p.amount, p.currency)} to {p.bank_code} ••••{' '}
            {p.account_last4}
            {p.account_holder_name && <> ({p.account_holder_name})</>}
          </p>
        </li>
        {p.approval_expires_at && (
          <li data-testid="timeline-requested">
            <h3>Approval requested</h3>
            <p>
              Requested by {createdByLabel(p.created_by)}; held out of the available balance until a second key decides, at the latest{' '}
              <Time iso={p.approval_expires_at} />.
            </p>
          </li>
        )}
        {p.status === 'awaiting_approval' && (
          <li data-testid="timeline-awaiting">
            <h3>Awaiting approval</h3>
            <p className="muted">Nothing has been sent to the bank.</p>
          </li>
        )}
        {p.approved_by && p.approved_at && (
          <li data-testid="timeline-approved">
            <h3>Approved</h3>
            <p>
              <Time iso={p.approved_at} /> by {p.approved_by.key_name ?? `key ${p.approved_by.key_id}`}
            </p>
          </li>
        )}
        {p.status === 'rejected' && p.rejected_at && (
          <li data-testid="timeline-rejected">
            <h3>Rejected</h3>
            <p>
              <Time iso={p.rejected_at} /> by {p.rejected_by?.key_name ?? `key ${p.rejected_by?.key_id ?? '?'}`}: “{p.rejection_reason}”
            </p>
          </li>
        )}
        {p.status === 'expired' && p.approval_expires_at && (
          <li data-testid="timeline-expired">
            <h3>Expired</h3>
            <p>
              <Time iso={p.approval_expires_at} />: nobody approved it in time; the amount went back to the available balance.
            </p>
          </li>
        )}
        {p.status === 'pending' && (
          <li data-testid="timeline-pending">
            <h3>Settling</h3>
            <p className="muted">The bank has not answered yet.</p>
          </li>
        )}
        {p.paid_at && (
          <li data-testid="timeline-paid">
            <h3>Paid</h3>
            <p>
              <Time iso={p.paid_at} />: the bank accepted it.
            </p>
            {p.bank_reference && (
              <p data-testid="bank-reference">
                Bank reference <CopyText value={p.bank_reference} label="bank reference" />: the line of your bank statement that matches
                it.
              </p>
            )}
          </li>
        )}
        {p.status === 'returned' && p.returned_at && (
          <li data-testid="timeline-returned">
            <h3>Returned by the bank</h3>
            <p>
              <Time iso={p.returned_at} />: {p.failure_message} <span className="muted">(code: {p.failure_code})</span>
            </p>
          </li>
        )}
        {p.status === 'failed' && p.settled_at && (
          <li data-testid="timeline-failed">
            <h3>Failed</h3>
            <p>
              <Time iso={p.settled_at} />: {p.failure_message} <span className="muted">(code: {p.failure_code})</span>
            </p>
          </li>
        )}
        {reversal && (
          <li data-testid="timeline-reversal" data-amount={reversal.amount} data-balance-after={reversal.balance_after}>
            <h3>Returned to your balance</h3>
            <p>
              <Time iso={reversal.created_at} />: +{formatMoney(reversal.amount, reversal.currency)}, available balance after it{' '}
              {formatMoney(reversal.balance_after, reversal.currency)}. Entry <CopyText value={reversal.id} label="balance entry id" />
            </p>
            <p>
              <Link
                href={`/balance?entry=${reversal.id}&until=${encodeURIComponent(new Date(Date.parse(reversal.created_at) + 1).toISOString())}`}
              >
                See it in the balance history
              </Link>
            </p>
          </li>
        )}
      </ol>
      <h2>Events and webhook deliveries</h2>
      {events === null ? (
        <p className="muted">This key may not read events.</p>
      ) : events.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <DataTable
          label="Payout events"
          rows={events}
          rowKey={({ event }) => event.id}
          rowProps={({ event }) => ({ 'data-testid': 'payout-event', 'data-type': event.type })}
          columns={[
            { header: 'Event', cell: ({ event }) => <Link href={`/webhooks/events/${event.id}`}>{event.type}</Link> },
            { header: 'Time', cell: ({ event }) => <Time iso={event.created_at} /> },
            {
              header: 'Deliveries',
              cell: ({ deliveries }) =>
                deliveries.length === 0 ? (
                  <span className="muted">none (no endpoint subscribed)</span>
                ) : (
                  deliveries.map((d) => (
                    <span
                      key={d.id}
                      className={`status status-${d.status === 'succeeded' ? 'paid' : d.status}`}
                      data-testid="payout-delivery"
                    >
                      {d.status}, {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                      {d.last_response_status !== null ? ` (HTTP ${d.last_response_status})` : ''}
                    </span>
                  ))
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
