// `npm pack` of packages/sdk installs into an empty folder and makes a payout there, in ten lines, against a real server.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';

const root = path.join(__dirname, '../..');
const sdkDir = path.join(root, 'packages/sdk');
let db: Db;
let api: TestApi;
let dir: string;

beforeAll(async () => {
  db = await pgliteBackend.open();
  api = await startTestApi(db);
  dir = fs.mkdtempSync(path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'sdk-pack-'));
});
afterAll(async () => {
  await api.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PAYOUT_SCRIPT = `import { PaymentsClient, PaymentApiError } from 'merchant-payments-sdk';

const client = new PaymentsClient({ secretKey: process.env.SECRET_KEY, baseUrl: process.env.BASE_URL });
try {
  const { data: payout, replayed } = await client.withdraw({ amount: 50000, bank_code: 'BCA', account_number: '1234567890' });
  console.log(JSON.stringify({ id: payout.id, status: payout.status, replayed }));
} catch (error) {
  if (error instanceof PaymentApiError) console.error(error.status, error.code, error.message);
  process.exitCode = 1;
}
`;

it('packs, installs from the tarball in a fresh folder, type-checks and pays out', async () => {
  const npm = (args: string[], cwd: string) =>
    execFileSync('npm', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], sdkDir)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const files = packed!.files.map((f) => f.path).sort();
  expect(files).toEqual(expect.arrayContaining(['README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'package.json']));
  expect(files.some((f) => f.startsWith('src/'))).toBe(false);

  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'merchant-shop', private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, packed!.filename)], app);
  const installed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules/merchant-payments-sdk/package.json'), 'utf8'));
  // Nothing beyond fetch (no zod), but the Standard Webhooks reference library for webhooks.verify.
  expect(Object.keys(installed.dependencies ?? {})).toEqual(['standardwebhooks']);
  expect(fs.readdirSync(path.join(app, 'node_modules')).filter((d) => !d.startsWith('.'))).toContain('merchant-payments-sdk');

  fs.writeFileSync(path.join(app, 'payout.mjs'), PAYOUT_SCRIPT);
  expect(PAYOUT_SCRIPT.trim().split('\n').length).toBeLessThanOrEqual(10);
  // Asynchronously: the API answering the script runs in this process.
  const { stdout: out } = await promisify(execFile)(process.execPath, ['payout.mjs'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, SECRET_KEY: api.merchant.secretKey, BASE_URL: api.url },
  });
  const result = JSON.parse(out);
  expect(result).toMatchObject({ id: expect.stringMatching(/^po_/), status: 'pending', replayed: false });

  // The shipped types: a TypeScript caller gets the answer's type, and a wrong field does not compile.
  fs.writeFileSync(
    path.join(app, 'check.ts'),
    `import { PaymentsClient, type Payout } from 'merchant-payments-sdk';
const client = new PaymentsClient({ secretKey: 'sk_test_x', baseUrl: 'http://localhost' });
export const p: Promise<Payout> = client.withdraw({ amount: 1, bank_code: 'BCA', account_number: '1' }).then((r) => r.data);
// @ts-expect-error bank_code is one of the test banks
client.withdraw({ amount: 1, bank_code: 'NOPE', account_number: '1' });
`,
  );
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      '--typeRoots',
      path.join(root, 'node_modules/@types'),
      'check.ts',
    ],
    { cwd: app, encoding: 'utf8' },
  );
});
