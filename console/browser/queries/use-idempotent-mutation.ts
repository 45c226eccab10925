'use client';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ConsoleRequestError, consoleFetch } from './console-fetch';
import { retryWrite, writeRetryDelay } from './retry-policy';
import { isStale, parseStored, storedIntents, type Sent } from './stored-intent';

export const newIdempotencyKey = () => crypto.randomUUID();

/**
 * One intent, one idempotency key. The key is made when the form opens, travels
 * in the mutation's variables (so every react-query retry resends it), survives a
 * reload in sessionStorage while the outcome is open (stored-intent.ts), and is
 * replaced only once the intent has finished: a real answer, success or refusal.
 */
export function useIdempotentMutation<I extends object, R>(opts: {
  path: string;
  storageKey: string;
  invalidates: QueryKey[];
  /** How long the API keeps idempotency keys (IDEMPOTENCY_KEY_TTL_SECONDS). */
  retentionSeconds: number;
}) {
  const queryClient = useQueryClient();
  const [ownKey, setOwnKey] = useState(newIdempotencyKey);
  const raw = useSyncExternalStore(
    storedIntents.subscribe,
    () => storedIntents.raw(opts.storageKey),
    () => null,
  );
  const stored = useMemo(() => parseStored<I>(raw), [raw]);

  const mutation = useMutation<R & { replayed: boolean }, ConsoleRequestError, Sent<I>>({
    mutationFn: (vars) => consoleFetch(opts.path, { method: 'POST', body: vars }),
    // The one retry layer of a write (retry-policy.ts): the route makes one upstream attempt per attempt here.
    retry: retryWrite,
    retryDelay: writeRetryDelay,
    onMutate: (vars) => {
      // The first send of this intent dates it; a resend keeps that date.
      const before = parseStored<I>(storedIntents.raw(opts.storageKey));
      const storedAt =
        before?.vars?.idempotency_key === vars.idempotency_key && typeof before.storedAt === 'number' ? before.storedAt : Date.now();
      storedIntents.write<I>(opts.storageKey, { vars, storedAt });
    },
    onSettled: (_data, error) => {
      // Still unknown: keep the stored intent so that a reload asks again with the same key.
      if (!error?.outcomeUnknown) storedIntents.remove(opts.storageKey);
      for (const key of opts.invalidates) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const { mutate, variables } = mutation;
  // While an intent is out (or was picked up after a reload), its key is the one in use.
  const idempotencyKey = variables?.idempotency_key ?? ownKey;

  /** Sends (or resends) the intent under its one key. */
  const send = useCallback((input: I) => mutate({ ...input, idempotency_key: idempotencyKey }), [mutate, idempotencyKey]);

  /** A new intent: only after the last one has finished. */
  const { reset: resetMutation } = mutation;
  const reset = useCallback(() => {
    resetMutation();
    setOwnKey(newIdempotencyKey());
  }, [resetMutation]);

  // An intent whose outcome was open when the page was left: ask again, same key, while the
  // server still remembers that key. Past its retention a resend would be a new payout: the
  // intent is marked stale and shown to the person instead, who checks the list before sending anything again.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    const found = parseStored<I>(storedIntents.raw(opts.storageKey));
    if (!found?.vars || found.stale) return;
    if (isStale(found, opts.retentionSeconds)) return storedIntents.write<I>(opts.storageKey, { ...found, stale: true });
    mutate(found.vars);
  }, [mutate, opts.storageKey, opts.retentionSeconds]);

  /** The person has seen the stale intent: forget it. */
  const dismissStale = useCallback(() => storedIntents.remove(opts.storageKey), [opts.storageKey]);

  const finished = mutation.isSuccess || (mutation.isError && !mutation.error.outcomeUnknown);
  return {
    mutation,
    idempotencyKey,
    send,
    reset,
    /** Set when this intent was picked up after a reload (its key is not the one this form made). */
    resumed: variables !== undefined && variables.idempotency_key !== ownKey,
    /** An unanswered intent too old to resend safely (see isStale), and how to forget it. */
    staleIntent: stored?.stale ? stored.vars : null,
    dismissStale,
    /** Sent at least once and no answer yet, or no usable answer: the payout may or may not exist. */
    outcomeUnknown: (mutation.isPending && mutation.failureCount > 0) || (mutation.isError && mutation.error.outcomeUnknown),
    finished,
    sentInput: mutation.variables,
  };
}
