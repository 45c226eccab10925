import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, forwardedClientAddress } from '@/lib/server/client-address';

const req = (xff: string | undefined, socket = '192.0.2.9') =>
  ({ headers: xff === undefined ? {} : { 'x-forwarded-for': xff }, socket: { remoteAddress: socket } }) as unknown as http.IncomingMessage;

describe('the client address', () => {
  it.each([
    [undefined, 0, '192.0.2.9'],
    ['1.1.1.1', 0, '192.0.2.9'], // no trusted proxy: the header is anyone's to write
    ['1.1.1.1', 1, '1.1.1.1'],
    ['6.6.6.6, 1.1.1.1', 1, '1.1.1.1'], // the client's own entries before the proxy's are not believed
    ['6.6.6.6, 1.1.1.1, 10.0.0.2', 2, '1.1.1.1'],
    [undefined, 1, '192.0.2.9'], // a proxy that sent nothing: fall back to the socket
    ['1.1.1.1', 5, '1.1.1.1'], // fewer entries than hops: the leftmost
  ])('X-Forwarded-For %j with %i trusted hops is %s', (xff, hops, expected) => {
    expect(clientAddress(req(xff), hops)).toBe(expected);
  });
});

describe('the client address where Next fronts the console (`next start`: X-Forwarded-For, filled with the socket when absent)', () => {
  it.each([
    ['192.0.2.9', 0, '192.0.2.9'], // Next filled it with the socket's peer
    ['198.51.100.7, 192.0.2.9', 1, '192.0.2.9'], // the entry the one proxy appended, not the browser's claim to its left
    ['198.51.100.7, 203.0.113.5, 192.0.2.9', 2, '203.0.113.5'],
    ['192.0.2.9', 5, '192.0.2.9'], // fewer entries than hops: the leftmost
    [null, 1, 'unknown'],
  ])('X-Forwarded-For %j with %i trusted hops is %s', (xff, hops, expected) => {
    expect(forwardedClientAddress(xff, hops)).toBe(expected);
  });
});
