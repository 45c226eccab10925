import { test as base, type Page } from '@playwright/test';
import { PaymentsClient, type SandboxWithKey } from 'merchant-payments-sdk';
import { toSeconds } from './duration.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** Settings a project gives in `use` (or through the environment). */
export interface PaymentsOptions {
  /** Where the payment API and its console are served; MERCHANT_PAYMENTS_BASE_URL by default. */
  paymentsBaseUrl: string | undefined;
  /** The parent merchant's secret key (or a restricted key with sandboxes:write); MERCHANT_PAYMENTS_SECRET_KEY by default. */
  paymentsSecretKey: string | undefined;
  /** What each worker's sandbox begins with (10,000,000 by default). */
  sandboxBalance: number | undefined;
  /** Whether each sandbox has a test clock (true by default: `clock` needs one). */
  sandboxTestClock: boolean;
  /** The host the API's server reaches this machine's webhook receiver at (127.0.0.1 by default: a server on this machine). */
  webhookHost: string | undefined;
}

/** The test clock of the worker's sandbox. */
export interface TestClock {
  /** Moves the clock by `'3d'`, `'12h'`, `'1d 12h'` or seconds, running what falls due on the way; answers the new time. */
  advance(duration: string | number): Promise<Date>;
  /** The clock's time. */
  now(): Promise<Date>;
}

/** The worker's sandbox: its id, its merchant and its key (for a second client, a restricted key, a page of your own). */
export type WorkerSandbox = SandboxWithKey & { secret_key: string };

interface WorkerFixtures {
  sandbox: WorkerSandbox;
  /** The parent's client: only to make and delete sandboxes. */
  parentPayments: PaymentsClient;
  consoleStorageState: string;
  webhookReceiver: WebhookReceiver;
}

interface TestFixtures {
  payments: PaymentsClient;
  consolePage: Page;
  clock: TestClock;
  webhooks: Pick<WebhookReceiver, 'next' | 'received'>;
}

const required = (value: string | undefined, what: string, env: string) => {
  if (!value) throw new Error(`${what} is not set: give ${env} in the environment or the project's use options`);
  return value;
};

export const test = base.extend<TestFixtures & Pick<PaymentsOptions, never>, WorkerFixtures & PaymentsOptions>({
  paymentsBaseUrl: [process.env.MERCHANT_PAYMENTS_BASE_URL, { option: true, scope: 'worker' }],
  paymentsSecretKey: [process.env.MERCHANT_PAYMENTS_SECRET_KEY, { option: true, scope: 'worker' }],
  sandboxBalance: [undefined, { option: true, scope: 'worker' }],
  sandboxTestClock: [true, { option: true, scope: 'worker' }],
  webhookHost: [undefined, { option: true, scope: 'worker' }],

  parentPayments: [
    async ({ paymentsBaseUrl, paymentsSecretKey }, use) => {
      await use(
        new PaymentsClient({
          baseUrl: required(paymentsBaseUrl, 'The API address', 'MERCHANT_PAYMENTS_BASE_URL'),
          secretKey: required(paymentsSecretKey, 'The parent secret key', 'MERCHANT_PAYMENTS_SECRET_KEY'),
        }),
      );
    },
    { scope: 'worker' },
  ],

  // One sandbox per worker, named after its parallel index, deleted when the worker ends (or, should the
  // worker die, at its expiry: an hour).
  sandbox: [
    async ({ parentPayments, sandboxBalance, sandboxTestClock }, use, workerInfo) => {
      const { data } = await parentPayments.createSandbox({
        name: `Playwright worker ${workerInfo.parallelIndex}`,
        balance: sandboxBalance,
        test_clock: sandboxTestClock,
        expires_in_seconds: 3600,
      });
      try {
        await use(data as WorkerSandbox);
      } finally {
        await parentPayments.deleteSandbox({ id: data.id });
      }
    },
    { scope: 'worker' },
  ],

  // Signed in once per worker with the sandbox's key; each consolePage starts from this state.
  consoleStorageState: [
    async ({ browser, paymentsBaseUrl, sandbox }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: paymentsBaseUrl });
      try {
        const res = await context.request.post('/api/session', { data: { secretKey: sandbox.secret_key } });
        if (!res.ok()) throw new Error(`console sign-in with the sandbox's key answered ${res.status()}: ${await res.text()}`);
        const file = workerInfo.project.outputDir + `/.payments-console-state-${workerInfo.parallelIndex}.json`;
        await context.storageState({ path: file });
        await use(file);
      } finally {
        await context.close();
      }
    },
    { scope: 'worker' },
  ],

  webhookReceiver: [
    async ({ sandbox, paymentsBaseUrl, webhookHost }, use) => {
      const receiver = await WebhookReceiver.start(webhookHost);
      const client = new PaymentsClient({ baseUrl: paymentsBaseUrl!, secretKey: sandbox.secret_key });
      const { data } = await client.createWebhookEndpoint({ url: receiver.url(), description: 'Playwright fixtures' });
      receiver.useSecret(data.secret!);
      try {
        await use(receiver);
      } finally {
        await receiver.close();
      }
    },
    { scope: 'worker' },
  ],

  payments: async ({ sandbox, paymentsBaseUrl }, use) => {
    await use(new PaymentsClient({ baseUrl: paymentsBaseUrl!, secretKey: sandbox.secret_key }));
  },

  consolePage: async ({ browser, consoleStorageState, paymentsBaseUrl }, use) => {
    const context = await browser.newContext({ storageState: consoleStorageState, baseURL: paymentsBaseUrl });
    const page = await context.newPage();
    try {
      await use(page);
    } finally {
      await context.close();
    }
  },

  clock: async ({ payments }, use) => {
    await use({
      async advance(duration) {
        const { data } = await payments.advanceTestClock({ seconds: toSeconds(duration) });
        return new Date(data.now);
      },
      async now() {
        const { data } = await payments.getTestClock();
        return new Date(data.now);
      },
    });
  },

  webhooks: async ({ webhookReceiver }, use) => {
    await use({ next: (...args) => webhookReceiver.next(...args), received: () => webhookReceiver.received() });
  },
});

export { expect } from '@playwright/test';
