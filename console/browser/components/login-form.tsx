'use client';
import { useRef, useState, type FormEvent } from 'react';
import { ConsoleRequestError, consoleFetch } from '@/console/browser/queries/console-fetch';
import { errorMessage } from '@/console/browser/messages';
import { noScriptAction, useHydrated } from '@/console/browser/use-hydrated';

/** `next`: a same-origin path already checked by safeNextPath, where the merchant lands after signing in. */
export function LoginForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const keyField = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const secretKey = keyField.current?.value ?? '';
    setBusy(true);
    setError(null);
    try {
      await consoleFetch('/api/session', { method: 'POST', body: { secretKey } });
      // Clear the field before leaving, so the key lingers nowhere in the page.
      form.reset();
      window.location.assign(next);
    } catch (e) {
      setError(
        e instanceof ConsoleRequestError && e.status === 401
          ? 'That API key was not accepted. Check it and try again.'
          : errorMessage(e as ConsoleRequestError).text,
      );
      setBusy(false);
    }
  }

  return (
    // No `name` on the key field and a POST action: without the script nothing secret can leave (see useHydrated).
    <form className="card narrow" onSubmit={onSubmit} autoComplete="off" method="post" action={noScriptAction('/login')}>
      <h1>Sign in</h1>
      <label>
        API key
        <input
          ref={keyField}
          type="password"
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="sk_test_… or rk_test_…"
          aria-describedby="key-hint"
        />
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <noscript>
        <p className="error">The console needs JavaScript to sign in.</p>
      </noscript>
      <button type="submit" disabled={busy || !hydrated}>
        Sign in
      </button>
      <p className="hint" id="key-hint">
        Your secret key, or a restricted key the account owner gave you (the console then shows only what it may do). The key is checked by
        the server and kept there, sealed in an httpOnly cookie. This page never stores it.
      </p>
    </form>
  );
}
