// A fresh database for a bench server: the demo merchant with a balance no withdraw run can exhaust.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import { credit } from '../lib/payments/ledger/ledger';
import { seedDemoMerchant } from '../lib/payments/merchants/merchants';
import { createSchemaUrl } from '../testing/databases';
import { DEMO_KEY } from '../testing/server-process';

export type Mode = 'postgres' | 'embedded';
export type Where = { databaseUrl: string; dataDir?: undefined } | { dataDir: string; databaseUrl?: undefined };

export async function prepareDatabase(mode: Mode): Promise<Where> {
  const where =
    mode === 'postgres' ? { databaseUrl: await createSchemaUrl() } : { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-')) };
  const db = await openDb(where);
  try {
    const merchant = (await seedDemoMerchant(db, DEMO_KEY))!;
    await db.transaction((tx) => credit(tx, merchant.id, 1_000_000_000_000, 'adjustment', 'bench'));
  } finally {
    await db.close();
  }
  return where;
}
