// What a start prints as its last lines once it listens: the console's address and, on the first start, the demo key.
import { describe, expect, it } from 'vitest';
import { readyMessage } from '../../scripts/ready-message';
import { countAnnouncements } from '../helpers/log-scan';

const demo = { name: 'Demo Store', available: 10_000_000, currency: 'IDR', secretKey: `sk_test_${'a'.repeat(32)}` };
const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

describe('the ready message', () => {
  it('ends with the console address, then the demo key, on the first start', () => {
    const text = readyMessage({ origin: 'http://localhost:3000', console: true, demo });
    expect(lastLines(text, 8)).toEqual([
      '  Ready.',
      '  Console:      http://localhost:3000/',
      '  Payment API:  POST http://localhost:3000/v1/index.php',
      '',
      '  Demo merchant "Demo Store" created with 10,000,000 IDR.',
      "  Its secret key (shown only now; sign in to the console with it, or send it as the API's Bearer key):",
      '',
      `    ${demo.secretKey}`,
    ]);
    // The one block the log scan allows a key in.
    expect(countAnnouncements(text)).toBe(1);
  });

  it('on a later start names no key, and says how to get a new one', () => {
    const text = readyMessage({ origin: 'http://localhost:3000', console: true });
    expect(text).not.toMatch(/sk_test_/);
    expect(text).toContain('  Console:      http://localhost:3000/');
    expect(lastLines(text, 1)[0]).toMatch(/npm run merchant -- roll-key/);
  });

  it('a console-only process says where the API is', () => {
    const text = readyMessage({ origin: 'http://127.0.0.1:3001', console: true, apiElsewhere: 'https://api.example.test' });
    expect(text).toContain('Payment API:  https://api.example.test (this process serves the console only)');
    expect(text).not.toContain('/v1/index.php');
  });

  it('npm run start:api names no console', () => {
    const text = readyMessage({ origin: 'http://127.0.0.1:3000', console: false, demo });
    expect(text).not.toContain('Console:');
    expect(text).toContain('Payment API:  POST http://127.0.0.1:3000/v1/index.php');
  });
});
