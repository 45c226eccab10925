import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@/lib/config/env';

describe('settings from the environment', () => {
  it('has defaults that run the app with no set-up', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: './.data', IDEMPOTENCY_KEY_TTL_SECONDS: 86_400 });
    expect(env.DATABASE_URL).toBeUndefined();
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
  ])('stops with a message naming %s for %j', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
