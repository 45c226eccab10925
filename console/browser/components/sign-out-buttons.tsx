'use client';
import { useState } from 'react';
import { consoleFetch, markSigningOut } from '@/console/browser/queries/console-fetch';

export function SignOutButtons() {
  const [busy, setBusy] = useState(false);
  const signOut = async (path: string, method: string) => {
    setBusy(true);
    markSigningOut();
    try {
      await consoleFetch(path, { method });
    } catch {
      // Already signed out (401) or unreachable: the sign-in page is the right place either way.
    }
    sessionStorage.clear();
    // A document load that replaces this page in the history, not a client-side push: every merchant answer held
    // in memory (the query cache, the router's) goes with it, and Back does not return to a signed-in page.
    window.location.replace('/login');
  };
  return (
    <div className="signout">
      <button type="button" disabled={busy} onClick={() => signOut('/api/session', 'DELETE')}>
        Sign out
      </button>
      <button type="button" className="link" disabled={busy} onClick={() => signOut('/api/session/revoke-all', 'POST')}>
        Sign out everywhere
      </button>
    </div>
  );
}
