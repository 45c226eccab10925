// Event and delivery ids in time order (migration 076): the same format as before (prefix, `_`, 32 hex digits),
// the first 12 digits the millisecond clock, the other 20 random, so that the events' primary key grows at its
// right edge with full pages.
import { describe, expect, it } from 'vitest';
import { idPattern } from '@/lib/contract';
import { backends } from '../../testing/databases';

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe.each(backends)('event and delivery ids ($name)', (backend) => {
  it('keep their format and differ within one statement', async () => {
    const db = await backend.open();
    try {
      const many = await db.query<{ id: string }>(`SELECT new_id('evt') AS id FROM generate_series(1, 2000)`);
      for (const { id } of many) expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(many[0]!.id).toMatch(idPattern('evt'));
      expect(new Set(many.map((r) => r.id)).size).toBe(many.length);
      // The 20 random digits differ even where the clock is the same.
      expect(new Set(many.map((r) => r.id.slice(16))).size).toBe(many.length);
    } finally {
      await db.close();
    }
  });

  it('start with the clock of their making, so that later ids sort after earlier ones', async () => {
    const db = await backend.open();
    try {
      const one = async () => (await db.query<{ id: string }>(`SELECT new_id('whd') AS id`))[0]!.id;
      const started = Date.now();
      const before = await one();
      await tick();
      const after = await one();
      expect(before < after).toBe(true);
      const ms = parseInt(after.slice(4, 16), 16);
      expect(ms).toBeGreaterThanOrEqual(started);
      expect(ms).toBeLessThanOrEqual(Date.now() + 1);
    } finally {
      await db.close();
    }
  });
});
