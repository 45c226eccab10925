import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { purgeEndedConsoleSessions } from '@/console/server/session/session-purge';
import { backends } from '../../testing/databases';

describe.each(backends)('purging ended console sessions ($name)', (backend) => {
  it('deletes sessions that expired or were signed out over a day ago, and keeps the rest', async () => {
    const db = await backend.open();
    try {
      const { id: merchantId } = await createMerchant(db, { name: 'Purge Shop', openingBalance: 0 });
      const rows: Array<[string, string, string | null]> = [
        ['sess_live', "now() + interval '8 hours'", null],
        ['sess_expired_long_ago', "now() - interval '2 days'", null],
        ['sess_expired_recently', "now() - interval '1 hour'", null],
        ['sess_signed_out_long_ago', "now() + interval '8 hours'", "now() - interval '2 days'"],
        ['sess_signed_out_recently', "now() + interval '8 hours'", "now() - interval '1 hour'"],
      ];
      for (const [id, expires, revoked] of rows) {
        await db.query(
          `INSERT INTO console_sessions (id, merchant_id, key_hash, expires_at, revoked_at) VALUES ($1, $2, 'h', ${expires}, ${revoked ?? 'NULL'})`,
          [id, merchantId],
        );
      }
      expect(await purgeEndedConsoleSessions(db)).toBe(2);
      const left = await db.query<{ id: string }>('SELECT id FROM console_sessions WHERE merchant_id = $1 ORDER BY id', [merchantId]);
      expect(left.map((r) => r.id)).toEqual(['sess_expired_recently', 'sess_live', 'sess_signed_out_recently']);
    } finally {
      await db.close();
    }
  });
});
