import type { ApiRequest, PaymentCore } from '../../../lib/payments/pipeline/api-request';

/**
 * A fetch that hands the request to this app's own payment core: the same
 * headers, body and answer as over HTTP, without a socket and a second trip
 * through Next's router (which cost the console proxy ~5 ms at p50). It is used
 * only when PAYMENT_API_BASE_URL is unset; setting it puts the adapter on real
 * HTTP with nothing else changed. The attempt's timeout signal is honoured.
 *
 * It takes what the payment client sends (a URL string and a string body) and
 * refuses anything else, rather than carry a second path nobody uses.
 */
export function inProcessFetch(getCore: () => Promise<PaymentCore>, clientAddress = 'console'): typeof fetch {
  return async (input, init = {}) => {
    if (typeof input !== 'string' || (init.body != null && typeof init.body !== 'string')) {
      throw new TypeError('inProcessFetch takes a URL string and a string body');
    }
    const request = plainRequest(input, init);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    // In process, the console's own forwarded address is believed: nothing else can reach this path.
    const forwarded = request.headers.get('x-forwarded-for');
    const answer = getCore()
      .then((core) => core(request, { clientAddress: forwarded ?? clientAddress }))
      .then((res) => new Response(res.body, { status: res.status, headers: res.headers }));
    if (!signal) return answer;
    return Promise.race([
      answer,
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
  };
}

function plainRequest(url: string, init: RequestInit): ApiRequest {
  const body = Buffer.from((init.body as string | null | undefined) ?? '', 'utf8');
  return {
    method: init.method ?? 'GET',
    url,
    headers: new Headers(init.headers),
    readBody: async (limit) => (body.length > limit ? 'too_large' : body),
  };
}
