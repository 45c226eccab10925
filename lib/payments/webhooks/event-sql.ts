import type { EventType } from '../../contract';

/**
 * The SQL that writes events, as parts of the statements that make the changes
 * they report (a transactional outbox: no change without its event, none without
 * its change). An event's `data.object` is built here, in the statement, from the
 * row it changed, so it is the object as get_payout / get_checkout_session
 * answers right after the change (payout-object.ts and its kin build the same object in
 * TypeScript; tests/payments/events.test.ts keeps the two equal).
 */

/**
 * A payout's `created_by` (`t`: the payouts' alias, or '' unqualified): its own, or, for a batch's payout stored
 * without it (migration 075), its batch's.
 */
export const payoutCreatedBySql = (t = '') =>
  `COALESCE(${t ? `${t}.` : ''}created_by, (SELECT b.created_by FROM payout_batches b WHERE b.id = ${t ? `${t}.` : ''}batch_id))`;

/** ISO 8601 in UTC with milliseconds, as Date.prototype.toISOString writes it (both truncate microseconds). */
const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The payout object of row `t` (a table alias or CTE with the payout columns). With `createdWhen`
 * (a SQL condition), the object as it was when created whenever that condition holds, for a payout
 * that never waited for approval: pending, no failure, not settled (its other fields never change).
 * With `paidWhen`, the object as it was when paid: a paid payout changes once more only when it is
 * returned (status, failure, returned_at), so the rest is as it was then.
 */
export const payoutJsonSql = (t: string, createdWhen?: string, paidWhen?: string) => {
  const at = (column: string, created: string, paid = column) => {
    const whenPaid = paidWhen && paid !== column ? `WHEN ${paidWhen} THEN ${paid} ` : '';
    const whenCreated = createdWhen ? `WHEN ${createdWhen} THEN ${created} ` : '';
    return whenPaid || whenCreated ? `CASE ${whenCreated}${whenPaid}ELSE ${column} END` : column;
  };
  return `json_build_object(
  'object', 'payout', 'id', ${t}.id, 'amount', ${t}.amount, 'currency', ${t}.currency, 'bank_code', ${t}.bank_code,
  'account_last4', right(${t}.account_number, 4), 'status', ${at(`${t}.status`, "'pending'", "'paid'")},
  'failure_code', ${at(`${t}.failure_code`, 'NULL', 'NULL')},
  'failure_message', ${at(`${t}.failure_message`, 'NULL', 'NULL')}, 'created_at', ${isoSql(`${t}.created_at`)},
  'settled_at', ${at(isoSql(`${t}.settled_at`), 'NULL')}, 'bank_reference', ${at(`${t}.bank_reference`, 'NULL')},
  'paid_at', ${at(`CASE WHEN ${t}.status IN ('paid', 'returned') THEN ${isoSql(`${t}.settled_at`)} END`, 'NULL')},
  'returned_at', ${at(isoSql(`${t}.returned_at`), 'NULL', 'NULL')},
  'batch_id', ${t}.batch_id, 'reference', ${t}.reference, 'created_by', ${payoutCreatedBySql(t)},
  'account_holder_name', ${t}.account_holder_name, 'approval_expires_at', ${isoSql(`${t}.approval_expires_at`)},
  'approved_by', ${t}.approved_by, 'approved_at', ${isoSql(`${t}.approved_at`)}, 'rejected_by', ${t}.rejected_by,
  'rejected_at', ${isoSql(`${t}.rejected_at`)}, 'rejection_reason', ${t}.rejection_reason, 'livemode', false)`;
};

/**
 * An event's `data.object` as stored or, for a payout's event stored without it, rebuilt from the
 * payout (`e` is the events alias). The events of a payout that never waited for approval keep no
 * copy (migration 011): such a payout changes once, from pending to paid or failed,
 * so payout.created is the payout as created and payout.paid / payout.failed the payout as it is,
 * byte for byte what a copy would hold; a paid payout may still be returned, so payout.paid is
 * rebuilt as it was when paid. A payout that waited for approval changes more often
 * (approved, then paid): its events keep their copies.
 */
export const eventDataSql = (e: string) =>
  `COALESCE(${e}.data, (SELECT ${payoutJsonSql('p', `${e}.type = 'payout.created'`, `${e}.type = 'payout.paid'`)} FROM payouts p WHERE p.id = ${e}.object_id))`;

/** The checkout session object of row `t`; `originParam` is the placeholder of the origin its URL starts with. */
export const checkoutSessionJsonSql = (t: string, originParam: string) => `json_build_object(
  'object', 'checkout_session', 'id', ${t}.id, 'url', ${originParam}::text || '/checkout/' || ${t}.id, 'status', ${t}.status,
  'amount', ${t}.amount, 'currency', ${t}.currency, 'description', ${t}.description, 'success_url', ${t}.success_url,
  'cancel_url', ${t}.cancel_url, 'expires_at', ${isoSql(`${t}.expires_at`)}, 'created_at', ${isoSql(`${t}.created_at`)},
  'completed_at', ${isoSql(`${t}.completed_at`)}, 'card_last4', ${t}.payment_card_last4, 'amount_refunded', ${t}.amount_refunded, 'created_by', ${t}.created_by, 'livemode', false)`;

/** The refund object of row `t` (a table alias or CTE with the refund columns). */
export const refundJsonSql = (t: string) => `json_build_object(
  'object', 'refund', 'id', ${t}.id, 'checkout_session_id', ${t}.checkout_session_id, 'amount', ${t}.amount, 'currency', ${t}.currency,
  'status', ${t}.status, 'reason', ${t}.reason, 'failure_code', ${t}.failure_code, 'failure_message', ${t}.failure_message,
  'created_at', ${isoSql(`${t}.created_at`)}, 'settled_at', ${isoSql(`${t}.settled_at`)}, 'created_by', ${t}.created_by, 'livemode', false)`;

/**
 * A new payout's events, for eventCtes' `type` over `from` joined with
 * payoutStartEvents: `payout.created`, then `payout.awaiting_approval` when it
 * waits for approval (Stripe's created plus the state it starts in); `pn` keeps
 * the payouts' order (arrival order in a group, item order in a batch).
 */
export const payoutStartEvents = (po: string) => `(SELECT p.*, t.type, t.n FROM (SELECT *, row_number() OVER () AS pn FROM ${po}) p
  CROSS JOIN LATERAL unnest(CASE WHEN p.status = 'awaiting_approval' THEN ARRAY['payout.created', 'payout.awaiting_approval']
                                 ELSE ARRAY['payout.created'] END) WITH ORDINALITY AS t(type, n))`;

/** A payout's event: every payout.* type, and the computed types of a new payout's events (payoutStartEvents). */
const payoutEvent = (type: EventType | { sql: string }) => typeof type !== 'string' || type.startsWith('payout.');

/**
 * Two CTEs, `ev` and `dl`: one event per row of `from` (a CTE or table alias with
 * `id` and `merchant_id`, or `merchantSql` for the merchant), and for each event a
 * pending delivery to every enabled endpoint of the merchant subscribed to its
 * type. Every event is written through here (a test keeps it so), so no event
 * misses its deliveries. The event of a payout that never waited for approval stores no `data`
 * (eventDataSql rebuilds it); `data` still documents the object it reports.
 */
export const eventCtes = (opts: { from: string; type: EventType | { sql: string; order: string }; data: string; merchantSql?: string }) => `
  ev AS (
    INSERT INTO events (id, merchant_id, type, object_id, data)
    SELECT new_id('evt'), ${opts.merchantSql ?? `${opts.from}.merchant_id`}, ${typeof opts.type === 'string' ? `'${opts.type}'` : opts.type.sql}, ${opts.from}.id,
           ${payoutEvent(opts.type) ? `CASE WHEN ${opts.from}.approval_expires_at IS NULL THEN NULL::json ELSE ${opts.data} END` : opts.data}
    FROM ${opts.from}${typeof opts.type === 'string' ? '' : ` ORDER BY ${opts.type.order}`}
    RETURNING id, merchant_id, type, seq),
  dl AS (
    INSERT INTO webhook_deliveries (id, merchant_id, event_id, endpoint_id)
    SELECT new_id('whd'), ev.merchant_id, ev.id, w.id
    FROM ev JOIN webhook_endpoints w ON w.merchant_id = ev.merchant_id AND NOT w.disabled
     AND (w.enabled_events = ARRAY['*'] OR ev.type = ANY (w.enabled_events))
    ORDER BY ev.seq, w.seq)`;
