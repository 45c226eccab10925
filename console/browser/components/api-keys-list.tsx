'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { retryWrite, writeRetryDelay } from '@/console/browser/queries/retry-policy';
import { consoleFetch, type ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { errorMessage } from '@/console/browser/messages';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { newIdempotencyKey } from '@/console/browser/queries/use-idempotent-mutation';
import type { ApiKey, List } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { TableFrame } from './data-table';
import { Time } from './time-zone';

/** The keys that work now (or until their expiry), with their last use; restricted and expiring ones can be revoked. */
export function ApiKeysList() {
  const keys = useQuery<List<ApiKey>, ConsoleRequestError>({
    queryKey: consoleKeys.apiKeys(),
    queryFn: () => consoleFetch<List<ApiKey>>('/api/api-keys'),
    refetchInterval: 15_000,
  });
  if (keys.isPending) return <p>Loading…</p>;
  if (keys.isError) return <p className="error">{errorMessage(keys.error).text}</p>;
  return (
    <TableFrame label="API keys" headers={['Key', 'Permissions', 'Created', 'Last used', 'Action']}>
      {keys.data.data.map((key) => (
        <KeyRow key={key.id} apiKey={key} />
      ))}
    </TableFrame>
  );
}

function KeyRow({ apiKey: key }: { apiKey: ApiKey }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // One idempotency key per confirmation, kept across the mutation's retries (it travels in the variables).
  const revoke = useMutation<ApiKey, ConsoleRequestError, { idempotency_key: string }>({
    mutationFn: (vars) => consoleFetch(`/api/api-keys/${key.id}`, { method: 'POST', body: vars }),
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.apiKeys() }),
  });
  const label = key.type === 'secret' ? 'Secret key' : key.name;
  const revocable = key.type === 'restricted' || key.expires_at !== null;
  return (
    <tr data-testid="api-key-row" data-key-id={key.id}>
      <td>
        <strong>{label}</strong>
        <br />
        <code>{key.hint}</code>
        {key.expires_at && (
          <div className="status status-pending">
            ⏳ works until <Time iso={key.expires_at} />
          </div>
        )}
      </td>
      <td>
        {key.permissions === null ? 'Everything' : key.permissions.map((p) => <code key={p}>{p} </code>)}
        {key.max_payout_amount !== null && <div className="muted">Payouts up to {formatMoney(key.max_payout_amount, 'IDR')}</div>}
      </td>
      <td>
        <Time iso={key.created_at} />
      </td>
      <td>{key.last_used_at ? <Time iso={key.last_used_at} /> : 'Never'}</td>
      <td>
        {revocable && !confirming && (
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
        {confirming && (
          <span className="actions">
            <button
              type="button"
              className="danger"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate({ idempotency_key: newIdempotencyKey() })}
            >
              Revoke “{label}” now
            </button>
            <button type="button" className="secondary" disabled={revoke.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        )}
        {revoke.isError && !revoke.error.outcomeUnknown && (
          <p className="error" role="alert">
            {errorMessage(revoke.error).text}
          </p>
        )}
      </td>
    </tr>
  );
}
