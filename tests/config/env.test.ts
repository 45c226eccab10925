import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@/lib/config/env';

describe('settings from the environment', () => {
  it('has defaults that run the app with no set-up', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: './.data', IDEMPOTENCY_KEY_TTL_SECONDS: 86_400 });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('gives defaults their parsed type, as a value set in the environment would have', () => {
    const env = parseEnv({});
    expect(env.WEBHOOK_RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    // The string 'false' would be truthy: private networks must be off unless asked for.
    expect(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(env.WITHDRAW_GROUP_COMMIT).toBe(true);
    expect(env.ALLOWED_HOSTS).toEqual([]);
    expect(parseEnv({ ALLOWED_HOSTS: 'Pay.internal, pay.internal:8080' }).ALLOWED_HOSTS).toEqual(['pay.internal', 'pay.internal:8080']);
  });

  it('treats blank values as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', PORT: ' ' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  it.each([
    [{ NODE_ENV: 'production', HOST: '0.0.0.0' }, false],
    [{ NODE_ENV: 'production', HOST: '0.0.0.0', PUBLIC_BASE_URL: 'http://pay.example.com' }, false],
    [{ NODE_ENV: 'production', HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://pay.example.com' }, true],
    [{ NODE_ENV: 'production' }, true], // loopback by default
    [{ NODE_ENV: 'production', HOST: '127.0.0.1' }, true],
    [{ NODE_ENV: 'development', HOST: '0.0.0.0' }, true],
  ])('requires an https PUBLIC_BASE_URL in production on a reachable address: %j -> %s', (source, ok) => {
    if (ok) expect(() => parseEnv(source)).not.toThrow();
    else expect(() => parseEnv(source)).toThrow(/PUBLIC_BASE_URL: must be an https/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DEMO_SECRET_KEY', 'sk_live_short'],
    ['IDEMPOTENCY_KEY_TTL_SECONDS', '0'],
    ['SESSION_SECRET', 'too-short'],
    ['PAYMENT_API_BASE_URL', 'not a url'],
    ['ALLOWED_HOSTS', 'evil.example/path'],
  ])('stops with a message naming %s for %j', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
