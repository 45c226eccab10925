import { DEMO_KEY } from './server-process';

/** Signs in to the console (POST /api/session) as the demo merchant; returns the Cookie header value. */
export async function signInToConsole(baseUrl: string, secretKey = DEMO_KEY): Promise<string> {
  const res = await fetch(`${baseUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secretKey }),
  });
  if (res.status !== 200) throw new Error(`console sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
