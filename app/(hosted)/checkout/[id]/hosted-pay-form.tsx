'use client';
import { useState, type FormEvent } from 'react';
import { ConsoleRequestError, consoleFetch } from '@/console/browser/queries/console-fetch';
import { errorMessage } from '@/console/browser/messages';
import { noScriptAction, useHydrated } from '@/console/browser/use-hydrated';

/** The customer's test-card form. The server lets exactly one payment through, whatever the clicks or tabs. */
export function HostedPayForm({ sessionId, payLabel }: { sessionId: string; payLabel: string }) {
  const hydrated = useHydrated();
  const [card, setCard] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'paying' | 'paid' } | { kind: 'error'; message: string; closed: boolean }>({
    kind: 'idle',
  });

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind === 'paying') return;
    const card_number = card;
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
      setState({
        kind: 'error',
        message: errorMessage(e instanceof ConsoleRequestError ? e : { code: 'network_error', message: String(e) }).text,
        closed,
      });
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
    <form onSubmit={pay} noValidate method="post" action={noScriptAction(`/checkout/${encodeURIComponent(sessionId)}`)}>
      <label>
        Card number
        <input
          value={card}
          onChange={(e) => setCard(e.target.value)}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          disabled={closed}
        />
      </label>
      <noscript>
        <p className="error">This payment page needs JavaScript.</p>
      </noscript>
      {state.kind === 'error' && (
        <p className="error" role="alert">
          {state.message}
        </p>
      )}
      <button type="submit" disabled={!hydrated || state.kind === 'paying' || closed}>
        {state.kind === 'paying' ? 'Paying…' : payLabel}
      </button>
    </form>
  );
}
