import 'server-only';
import type { PayoutTimelineData as PayoutTimeline } from '../../browser/console-views';
import type { BalanceTransaction, Payout } from '../../../lib/contract';
import type { MerchantApi } from '../upstream/merchant-api';
import { unlessForbidden } from './page-data';

/**
 * The entry that gave a failed, rejected or returned payout's money back: its payout_reversal or
 * payout_return, the one entry of that type the payout caused (list_balance_transactions by source).
 */
async function findReversal(api: MerchantApi, payout: Payout): Promise<BalanceTransaction | null> {
  const type =
    payout.status === 'returned' ? 'payout_return' : ['failed', 'rejected', 'expired'].includes(payout.status) ? 'payout_reversal' : null;
  if (!type) return null;
  return (await api.listBalanceTransactions({ type, source: payout.id, limit: 1 })).data.data[0] ?? null;
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
