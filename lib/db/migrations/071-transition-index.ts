/**
 * One event per transition, (object_id, type) unique, with the type's 4-byte hash in the key instead of its
 * text (up to 26 bytes): each entry 16 bytes shorter, about 40 bytes per settled payout (its two events).
 * Exact: the event types are a fixed list whose hashes differ (tests/db/constraints.test.ts checks every one
 * of the contract's), so two types of one object never share a key. List_events by object_id still reads it
 * by its leading column. Built CONCURRENTLY on PostgreSQL before the old one is dropped: writes go on, and a
 * duplicate is refused throughout.
 */
export const transitionIndex = { name: 'events_once_per_transition', unique: true, on: 'events (object_id, hashtext(type))' };

export const replacedTransitionIndexes = ['events_one_per_transition'];
