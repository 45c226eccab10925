import type { ReactNode } from 'react';

/**
 * An intent that got no answer when the page was last open, too long ago to resend under its key
 * (use-idempotent-mutation.ts, isStale): it was not resent, and the person checks where it would
 * show before sending anything again. One warning, so every form says this alike.
 */
export function StaleIntent({ what, checkIn, onDismiss }: { what: ReactNode; checkIn: ReactNode; onDismiss(): void }) {
  return (
    <div className="warning" role="alert" data-testid="stale-intent">
      <p>
        {what} got no answer when this page was last open, too long ago to ask again safely. It was not resent: check {checkIn} before
        sending it again.
      </p>
      <button type="button" onClick={onDismiss}>
        I have checked: dismiss
      </button>
    </div>
  );
}
