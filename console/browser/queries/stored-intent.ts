'use client';

/**
 * The intent of a write whose outcome is still open, kept in sessionStorage so that a reload asks
 * again with the same idempotency key. A tiny external store: the hook reads it with
 * useSyncExternalStore (nothing on the server, the stored text once hydrated) and every write here
 * tells its readers, so a component never copies storage into state by hand.
 */

export type Sent<I> = I & { idempotency_key: string };

/** What survives a reload: the intent, when it was first sent (the browser's clock), and whether it was found too old to resend. */
export interface StoredIntent<I> {
  vars: Sent<I>;
  storedAt?: number;
  stale?: boolean;
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export const storedIntents = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The stored text (a string is a stable snapshot for useSyncExternalStore). */
  raw: (key: string): string | null => sessionStorage.getItem(key),
  write<I>(key: string, intent: StoredIntent<I>) {
    sessionStorage.setItem(key, JSON.stringify(intent));
    changed();
  },
  remove(key: string) {
    sessionStorage.removeItem(key);
    changed();
  },
};

export function parseStored<I>(raw: string | null): StoredIntent<I> | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredIntent<I>> & { idempotency_key?: string };
    // Stored by an older console: the intent itself, undated.
    return parsed.vars ? (parsed as StoredIntent<I>) : { vars: parsed as unknown as Sent<I> };
  } catch {
    return undefined;
  }
}

/**
 * Resending is safe only while the server still remembers the key: its retention
 * counts from when it first saw the request, which is after `storedAt`. A margin
 * (10%, at most a minute) keeps clear of the edge. An intent of unknown age is stale.
 */
export function isStale(stored: Partial<StoredIntent<unknown>>, retentionSeconds: number, now = Date.now()): boolean {
  if (typeof stored.storedAt !== 'number') return true;
  const margin = Math.min(60, retentionSeconds * 0.1);
  return now - stored.storedAt >= (retentionSeconds - margin) * 1000;
}
