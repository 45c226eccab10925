'use client';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConsoleRequestError, consoleFetch } from './console-fetch';

/** Up to three retries after 1 s, 2 s and 4 s, as the API spec recommends. */
const MAX_RETRIES = 3;

export const newIdempotencyKey = () => crypto.randomUUID();

type Sent<I> = I & { idempotency_key: string };

/**
 * One intent, one idempotency key. The key is made when the form opens, travels
 * in the mutation's variables (so every react-query retry resends it), survives a
 * reload in sessionStorage while the outcome is open, and is replaced only once
 * the intent has finished: a real answer, success or refusal.
 */
export function useIdempotentMutation<I extends object, R>(opts: { path: string; storageKey: string; invalidates: QueryKey[] }) {
  const queryClient = useQueryClient();
  const [idempotencyKey, setKey] = useState(newIdempotencyKey);
  const [resumed, setResumed] = useState(false);

  const mutation = useMutation<R & { replayed: boolean }, ConsoleRequestError, Sent<I>>({
    mutationFn: (vars) => consoleFetch(opts.path, { method: 'POST', body: vars }),
    retry: (count, error) => error.outcomeUnknown && count < MAX_RETRIES,
    retryDelay: (count) => 1000 * 2 ** count,
    onMutate: (vars) => sessionStorage.setItem(opts.storageKey, JSON.stringify(vars)),
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

  // An intent whose outcome was open when the page was left: ask again, same key.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    const stored = sessionStorage.getItem(opts.storageKey);
    if (!stored) return;
    const vars = JSON.parse(stored) as Sent<I>;
    setKey(vars.idempotency_key);
    setResumed(true);
    mutate(vars);
  }, [mutate, opts.storageKey]);

  const finished = mutation.isSuccess || (mutation.isError && !mutation.error.outcomeUnknown);
  return {
    mutation,
    idempotencyKey,
    send,
    reset,
    /** Set when this intent was picked up after a reload. */
    resumed,
    /** Sent at least once and no answer yet, or no usable answer: the payout may or may not exist. */
    outcomeUnknown: (mutation.isPending && mutation.failureCount > 0) || (mutation.isError && mutation.error.outcomeUnknown),
    finished,
    sentInput: mutation.variables,
  };
}
