'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { retryWrite, writeRetryDelay } from '@/console/browser/queries/retry-policy';
import { consoleFetch, type ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { fieldMessage } from '@/console/browser/messages';
import { newIdempotencyKey, useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { EVENT_TYPES, webhookUrlField, type List, type WebhookEndpoint } from '@/lib/contract';
import { SecretShownOnce } from './secret-shown-once';
import { WebhookDeliveries } from './webhook-deliveries';
import { IntentStatus } from './intent-status';
import { Time } from './time-zone';
import { ErrorText } from './error-text';

type WithSecret = WebhookEndpoint & { secret: string | null; replayed: boolean };
type CreateInput = { url: string; enabled_events?: string[]; description?: string };

/** Webhooks: add an endpoint (its secret shown once), list them, disable, delete, rotate; deliveries per endpoint. */
export function WebhooksPanel({ retentionSeconds }: { retentionSeconds: number }) {
  const endpoints = useQuery({
    queryKey: consoleKeys.webhooks.endpoints(),
    queryFn: () => consoleFetch<List<WebhookEndpoint>>('/api/webhook-endpoints'),
    refetchInterval: 5_000,
  });
  return (
    <>
      <section className="card" aria-labelledby="new-endpoint-heading">
        <h2 id="new-endpoint-heading">Add an endpoint</h2>
        <CreateEndpointForm retentionSeconds={retentionSeconds} />
      </section>
      <section className="card" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        {endpoints.isPending && <p>Loading…</p>}
        {endpoints.isError && (
          <p className="error" role="alert">
            The endpoints could not be loaded: <ErrorText error={endpoints.error} />
          </p>
        )}
        {endpoints.data?.data.length === 0 && (
          <p className="hint">No endpoints yet. Add one above; `npm run webhook-receiver` runs a local one.</p>
        )}
        {endpoints.data?.data.map((ep) => (
          <EndpointCard key={ep.id} endpoint={ep} />
        ))}
      </section>
    </>
  );
}

function CreateEndpointForm({ retentionSeconds }: { retentionSeconds: number }) {
  const intent = useIdempotentMutation<CreateInput, WithSecret>({
    path: '/api/webhook-endpoints',
    storageKey: 'console.webhook-endpoint-intent',
    invalidates: [consoleKeys.webhooks.endpoints()],
    retentionSeconds,
  });
  const [error, setError] = useState<string | null>(null);
  const { mutation } = intent;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = String(form.get('url') ?? '').trim();
    const url = webhookUrlField.safeParse(typed);
    if (!url.success) return setError(fieldMessage('url', { code: url.error.issues[0]!.code, input: typed }));
    const chosen = form.getAll('events').map(String);
    if (chosen.length === 0) return setError(fieldMessage('enabled_events', { code: 'too_small' }));
    const description = String(form.get('description') ?? '').trim();
    setError(null);
    intent.send({ url: url.data, enabled_events: chosen.includes('*') ? ['*'] : chosen, ...(description ? { description } : {}) });
  }

  if (mutation.isSuccess) {
    const { secret, url, replayed } = mutation.data;
    return (
      <div className="success" role="status">
        <p>Endpoint added for {url}.</p>
        <SecretShownOnce
          secret={secret}
          replayed={replayed}
          noun="Its signing secret"
          use="Keep it with your receiver (for example `WEBHOOK_SECRET`)"
          getAnother="Rotate the secret to get a new one."
        />
        <button type="button" onClick={intent.reset}>
          Done
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <label>
        URL
        <input name="url" type="url" placeholder="http://127.0.0.1:4000/webhooks" autoComplete="off" disabled={mutation.isPending} />
      </label>
      <fieldset>
        <legend>Events</legend>
        <label className="inline">
          <input type="checkbox" name="events" value="*" defaultChecked /> All events
        </label>
        {EVENT_TYPES.map((type) => (
          <label className="inline" key={type}>
            <input type="checkbox" name="events" value={type} /> {type}
          </label>
        ))}
      </fieldset>
      <label>
        Description
        <input name="description" maxLength={500} autoComplete="off" disabled={mutation.isPending} />
      </label>
      <IntentStatus error={error} intent={intent} />
      <button type="submit" disabled={mutation.isPending}>
        Add endpoint
      </button>
    </form>
  );
}

type Op = 'disable' | 'enable' | 'rotate' | 'delete';

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  // One key per click, kept across the mutation's retries (it travels in the variables).
  const action = useMutation<WithSecret, ConsoleRequestError, { op: Op; idempotency_key: string }>({
    mutationFn: (vars) => consoleFetch(`/api/webhook-endpoints/${endpoint.id}`, { method: 'POST', body: vars }),
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.endpoints() }),
  });
  const run = (op: Op) => {
    if (op === 'delete' && !window.confirm(`Delete the endpoint ${endpoint.url}? Its pending deliveries are dropped.`)) return;
    action.mutate({ op, idempotency_key: newIdempotencyKey() });
  };
  const rotated = action.data && action.variables?.op === 'rotate' ? action.data.secret : null;
  return (
    <article className="endpoint" aria-label={`Endpoint ${endpoint.url}`} data-testid="webhook-endpoint">
      <h3>
        <code>{endpoint.url}</code>{' '}
        <span className={`status ${endpoint.disabled ? 'status-failed' : 'status-paid'}`}>
          {endpoint.disabled ? 'Disabled' : 'Enabled'}
        </span>
      </h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      {endpoint.disabled_reason && <p className="hint">{endpoint.disabled_reason}</p>}
      <p className="hint">
        Events: {endpoint.enabled_events.join(', ') === '*' ? 'all' : endpoint.enabled_events.join(', ')} · <code>{endpoint.id}</code>
        {endpoint.previous_secret_expires_at && (
          <>
            {' '}
            · previous secret signs until <Time iso={endpoint.previous_secret_expires_at} />
          </>
        )}
      </p>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          disabled={action.isPending}
          onClick={() => run(endpoint.disabled ? 'enable' : 'disable')}
        >
          {endpoint.disabled ? 'Enable' : 'Disable'}
        </button>
        <button type="button" className="secondary" disabled={action.isPending} onClick={() => run('rotate')}>
          Rotate secret
        </button>
        <button type="button" className="secondary" disabled={action.isPending} onClick={() => run('delete')}>
          Delete
        </button>
      </div>
      {action.isError && !action.error.outcomeUnknown && (
        <p className="error" role="alert">
          <ErrorText error={action.error} />
        </p>
      )}
      {rotated && (
        <div className="success" role="status">
          <SecretShownOnce
            secret={rotated}
            noun="New signing secret"
            use="The old one signs alongside it for 24 hours; give your receiver this one"
            getAnother="Rotate again to get one."
          />
          <button type="button" onClick={() => action.reset()}>
            Done
          </button>
        </div>
      )}
      <WebhookDeliveries endpointId={endpoint.id} />
    </article>
  );
}
