import 'server-only';
import type { PayoutTimelineData as PayoutTimeline } from '../client/console-views';
import type { BalanceTransaction, Payout } from '../contract';
import type { MerchantApi } from '../upstream/merchant-api';
import { unlessForbidden } from './page-data';

/**
 * The reversal is written in the transaction that fails the payout, so its
 * created_at is the payout's settled_at: a one-millisecond window of
 * payout_reversal entries holds it (paged, in case a batch failed together).
 * A returned payout's payout_return entry is written with its return (returned_at).
 */
async function findReversal(api: MerchantApi, payout: Payout): Promise<BalanceTransaction | null> {
  // A rejected payout's reversal is written in the transaction that rejected it (rejected_at).
  const endedAt =
    payout.status === 'failed'
      ? payout.settled_at
      : payout.status === 'rejected'
        ? payout.rejected_at
        : payout.status === 'returned'
          ? payout.returned_at
          : null;
  if (!endedAt) return null;
  const type = payout.status === 'returned' ? 'payout_return' : 'payout_reversal';
  const at = Date.parse(endedAt);
  let after: string | undefined;
  for (;;) {
    const page = (
      await api.listBalanceTransactions({
        type,
        limit: 100,
        created_gte: new Date(at).toISOString(),
        created_lt: new Date(at + 1).toISOString(),
        ...(after ? { starting_after: after } : {}),
      })
    ).data;
    const found = page.data.find((t) => t.source === payout.id);
    if (found || !page.has_more) return found ?? null;
    after = page.data.at(-1)!.id;
  }
}

async function eventsOf(api: MerchantApi, payoutId: string) {
  const events = (await api.listEvents({ object_id: payoutId, limit: 20 })).data.data.reverse();
  return Promise.all(
    events.map(async (event) => ({
      event,
      deliveries: (await unlessForbidden(api.listWebhookDeliveries({ event_id: event.id, limit: 20 })))?.data.data ?? [],
    })),
  );
}

export async function payoutTimeline(api: MerchantApi, payout: Payout): Promise<PayoutTimeline> {
  const [reversal, events] = await Promise.all([unlessForbidden(findReversal(api, payout)), unlessForbidden(eventsOf(api, payout.id))]);
  return { reversal: reversal ?? null, events };
}
