'use client';
import { useState, type FormEvent } from 'react';
import { ConsoleRequestError, consoleFetch } from '@/lib/client/console-fetch';

/** The customer's test-card form. The server lets exactly one payment through, whatever the clicks or tabs. */
export function HostedPayForm({ sessionId, payLabel }: { sessionId: string; payLabel: string }) {
  const [state, setState] = useState<{ kind: 'idle' | 'paying' | 'paid' } | { kind: 'error'; message: string; closed: boolean }>({ kind: 'idle' });

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind === 'paying') return;
    const card_number = String(new FormData(event.currentTarget).get('card_number') ?? '');
    setState({ kind: 'paying' });
    try {
      const result = await consoleFetch<{ success_url: string | null }>(`/api/checkout/${encodeURIComponent(sessionId)}/pay`, {
        method: 'POST',
        body: { card_number },
      });
      setState({ kind: 'paid' });
      if (result.success_url) window.location.assign(result.success_url);
    } catch (e) {
      const closed = e instanceof ConsoleRequestError && e.code === 'checkout_session_not_open';
      setState({ kind: 'error', message: (e as Error).message, closed });
    }
  }

  if (state.kind === 'paid') {
    return (
      <p className="success" role="status">
        Payment complete. Thank you!
      </p>
    );
  }
  const closed = state.kind === 'error' && state.closed;
  return (
    <form onSubmit={pay} noValidate>
      <label>
        Card number
        <input name="card_number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" disabled={closed} />
      </label>
      {state.kind === 'error' && (
        <p className="error" role="alert">
          {state.message}
        </p>
      )}
      <button type="submit" disabled={state.kind === 'paying' || closed}>
        {state.kind === 'paying' ? 'Paying…' : payLabel}
      </button>
    </form>
  );
}
