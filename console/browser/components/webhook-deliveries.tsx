'use client';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { retryWrite, writeRetryDelay } from '@/console/browser/queries/retry-policy';
import { consoleFetch, type ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { newIdempotencyKey } from '@/console/browser/queries/use-idempotent-mutation';
import type { List, WebhookDelivery } from '@/lib/contract';
import { DataTable } from './data-table';
import { ErrorText } from './error-text';
import { Time } from './time-zone';

/** An endpoint's recent deliveries: status, attempts, last answer, next retry, and Resend. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: consoleKeys.webhooks.deliveries(endpointId),
    queryFn: () => consoleFetch<List<WebhookDelivery>>(`/api/webhook-deliveries?endpoint_id=${encodeURIComponent(endpointId)}&limit=20`),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 1_000 : 5_000),
  });
  const resend = useMutation<WebhookDelivery, ConsoleRequestError, { eventId: string; idempotency_key: string }>({
    mutationFn: ({ eventId, idempotency_key }) =>
      consoleFetch(`/api/events/${eventId}/resend`, { method: 'POST', body: { endpoint_id: endpointId, idempotency_key } }),
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.deliveries(endpointId) }),
  });
  const rows = deliveries.data?.data ?? [];
  return (
    <div>
      <DataTable
        label="Recent deliveries"
        rows={rows}
        rowKey={(d) => d.id}
        rowProps={() => ({ 'data-testid': 'webhook-delivery' })}
        empty="No deliveries yet: make a payout, and its events arrive here."
        columns={[
          { header: 'Event', cell: (d) => <Link href={`/webhooks/events/${d.event_id}`}>{d.event_type}</Link> },
          {
            header: 'Status',
            cell: (d) => <span className={`status status-${d.status === 'succeeded' ? 'paid' : d.status}`}>{d.status}</span>,
          },
          { header: 'Attempts', cell: (d) => d.attempts },
          {
            header: 'Last answer',
            cell: (d) => <span title={d.last_response_body ?? undefined}>{d.last_response_status ?? d.last_error ?? '—'}</span>,
          },
          { header: 'Next retry', cell: (d) => (d.next_attempt_at ? <Time iso={d.next_attempt_at} /> : '—') },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (d) => (
              <button
                type="button"
                className="secondary"
                disabled={resend.isPending}
                onClick={() => resend.mutate({ eventId: d.event_id, idempotency_key: newIdempotencyKey() })}
              >
                Resend
              </button>
            ),
          },
        ]}
      />
      {resend.isError && !resend.error.outcomeUnknown && (
        <p className="error" role="alert">
          <ErrorText error={resend.error} />
        </p>
      )}
    </div>
  );
}
