'use client';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConsoleRequestError, consoleFetch } from './console-fetch';
import { retryWrite, writeRetryDelay } from './retry-policy';

export const newIdempotencyKey = () => crypto.randomUUID();

type Sent<I> = I & { idempotency_key: string };

/** What survives a reload: the intent and when it was first sent (the browser's clock). */
interface StoredIntent<I> {
  vars: Sent<I>;
  storedAt: number;
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

/**
 * One intent, one idempotency key. The key is made when the form opens, travels
 * in the mutation's variables (so every react-query retry resends it), survives a
 * reload in sessionStorage while the outcome is open, and is replaced only once
 * the intent has finished: a real answer, success or refusal.
 */
export function useIdempotentMutation<I extends object, R>(opts: {
  path: string;
  storageKey: string;
  invalidates: QueryKey[];
  /** How long the API keeps idempotency keys (IDEMPOTENCY_KEY_TTL_SECONDS). */
  retentionSeconds: number;
}) {
  const queryClient = useQueryClient();
  const [idempotencyKey, setKey] = useState(newIdempotencyKey);
  const [resumed, setResumed] = useState(false);
  const [staleIntent, setStaleIntent] = useState<Sent<I> | null>(null);

  const mutation = useMutation<R & { replayed: boolean }, ConsoleRequestError, Sent<I>>({
    mutationFn: (vars) => consoleFetch(opts.path, { method: 'POST', body: vars }),
    // The one retry layer of a write (retry-policy.ts): the route makes one upstream attempt per attempt here.
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onMutate: (vars) => {
      // The first send of this intent dates it; a resend keeps that date.
      const stored = readStored<I>(opts.storageKey);
      const storedAt =
        stored?.vars?.idempotency_key === vars.idempotency_key && typeof stored.storedAt === 'number' ? stored.storedAt : Date.now();
      sessionStorage.setItem(opts.storageKey, JSON.stringify({ vars, storedAt } satisfies StoredIntent<I>));
    },
    onSettled: (_data, error) => {
      // Still unknown: keep the stored intent so that a reload asks again with the same key.
      if (!error?.outcomeUnknown) sessionStorage.removeItem(opts.storageKey);
      for (const key of opts.invalidates) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const { mutate } = mutation;

  /** Sends (or resends) the intent under its one key. */
  const send = useCallback((input: I) => mutate({ ...input, idempotency_key: idempotencyKey }), [mutate, idempotencyKey]);

  /** A new intent: only after the last one has finished. */
  const { reset: resetMutation } = mutation;
  const reset = useCallback(() => {
    resetMutation();
    setResumed(false);
    setKey(newIdempotencyKey());
  }, [resetMutation]);

  // An intent whose outcome was open when the page was left: ask again, same key, while the
  // server still remembers that key. Past its retention a resend would be a new payout: the
  // intent is shown to the person instead, who checks the list before sending anything again.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    const stored = readStored<I>(opts.storageKey);
    if (!stored?.vars) return;
    if (isStale(stored, opts.retentionSeconds)) return setStaleIntent(stored.vars);
    setKey(stored.vars.idempotency_key);
    setResumed(true);
    mutate(stored.vars);
  }, [mutate, opts.storageKey, opts.retentionSeconds]);

  /** The person has seen the stale intent: forget it. */
  const dismissStale = useCallback(() => {
    sessionStorage.removeItem(opts.storageKey);
    setStaleIntent(null);
  }, [opts.storageKey]);

  const finished = mutation.isSuccess || (mutation.isError && !mutation.error.outcomeUnknown);
  return {
    mutation,
    idempotencyKey,
    send,
    reset,
    /** Set when this intent was picked up after a reload. */
    resumed,
    /** An unanswered intent too old to resend safely (see isStale), and how to forget it. */
    staleIntent,
    dismissStale,
    /** Sent at least once and no answer yet, or no usable answer: the payout may or may not exist. */
    outcomeUnknown: (mutation.isPending && mutation.failureCount > 0) || (mutation.isError && mutation.error.outcomeUnknown),
    finished,
    sentInput: mutation.variables,
  };
}

function readStored<I>(key: string): Partial<StoredIntent<I>> | undefined {
  const raw = sessionStorage.getItem(key);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredIntent<I>> & { idempotency_key?: string };
    // Stored by an older console: the intent itself, undated.
    return parsed.vars ? parsed : { vars: parsed as unknown as Sent<I> };
  } catch {
    return undefined;
  }
}
