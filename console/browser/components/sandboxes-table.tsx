'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleFetch, type ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { errorMessage } from '@/console/browser/messages';
import { retryWrite, writeRetryDelay } from '@/console/browser/queries/retry-policy';
import { newIdempotencyKey } from '@/console/browser/queries/use-idempotent-mutation';
import type { Sandbox } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { TableFrame } from './data-table';
import { EmptyState } from './empty-state';
import { Time } from './time-zone';

/** The live sandboxes, newest first, each with Reset and Delete (each asks once more before it acts). */
export function SandboxesTable({ sandboxes, more }: { sandboxes: Sandbox[]; more: boolean }) {
  if (sandboxes.length === 0) return <EmptyState>No sandboxes yet. Your test runs make them with create_sandbox.</EmptyState>;
  return (
    <>
      <TableFrame label="Sandboxes" headers={['Sandbox', 'Starting balance', 'Clock', 'Expires', 'Action']}>
        {sandboxes.map((s) => (
          <SandboxRow key={s.id} sandbox={s} />
        ))}
      </TableFrame>
      {more && <p className="muted">Showing the newest 100.</p>}
    </>
  );
}

function SandboxRow({ sandbox: s }: { sandbox: Sandbox }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<'reset' | 'delete' | null>(null);
  // One idempotency key per confirmation, kept across the mutation's retries (it travels in the variables).
  const act = useMutation<unknown, ConsoleRequestError, { op: 'reset' | 'delete'; idempotency_key: string }>({
    mutationFn: (vars) => consoleFetch(`/api/sandboxes/${s.id}`, { method: 'POST', body: vars }),
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onSuccess: () => {
      setConfirming(null);
      router.refresh();
    },
  });
  return (
    <tr data-testid="sandbox-row" data-sandbox-id={s.id}>
      <td data-label="Sandbox">
        <span className="cell">
          <strong>{s.name}</strong>
          <br />
          <code>{s.id}</code>
        </span>
      </td>
      <td data-label="Starting balance" className="num">
        <span className="cell">{formatMoney(s.balance, 'IDR')}</span>
      </td>
      <td data-label="Clock">
        <span className="cell">{s.test_clock ? <Time iso={s.test_clock} /> : 'Real time'}</span>
      </td>
      <td data-label="Expires">
        <span className="cell">
          <Time iso={s.expires_at} />
        </span>
      </td>
      <td data-label="Action">
        <span className="cell">
          {confirming === null ? (
            <span className="actions">
              <button type="button" className="secondary" onClick={() => setConfirming('reset')}>
                Reset
              </button>
              <button type="button" className="secondary" onClick={() => setConfirming('delete')}>
                Delete
              </button>
            </span>
          ) : (
            <span className="actions">
              <button
                type="button"
                className="danger"
                disabled={act.isPending}
                onClick={() => act.mutate({ op: confirming, idempotency_key: newIdempotencyKey() })}
              >
                {confirming === 'reset' ? `Wipe “${s.name}” now` : `Delete “${s.name}” now`}
              </button>
              <button type="button" className="secondary" disabled={act.isPending} onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </span>
          )}
          {act.isError && <p className="error">{errorMessage(act.error).text}</p>}
        </span>
      </td>
    </tr>
  );
}
