'use client';
import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False in the server-rendered HTML and until React has taken over the page.
 * Forms keep their submit button disabled until then: pressing Enter before the
 * scripts have loaded must not submit a form the browser's own way.
 */
export function useHydrated(): boolean {
  // The server snapshot (false) is used for the HTML and for hydration, the client's (true) right after.
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * Where a form goes if it is ever submitted without its script (no JavaScript, a
 * blocked bundle): a POST, never a GET that would put its fields in the URL, to a
 * route that refuses it and sends the browser back. Secret fields have no `name`,
 * so even that POST carries none of them.
 */
export const noScriptAction = (back: string) => `/api/no-script?back=${encodeURIComponent(back)}`;
