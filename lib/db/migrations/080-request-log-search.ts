import type { IndexStep } from './migration';

/**
 * The request log's searches a support desk makes: by origin (the log without the console's own reads, the
 * default view; those reads can be most of the rows, so a walk of the merchant's index filtering them out would
 * read them all) and by the object a call made or read (a payout's id). Keys end in `seq`, as in migration 012.
 */
export const requestLogSearchIndexes: IndexStep[] = [
  { name: 'request_log_merchant_origin', on: 'request_log (merchant_id, origin, seq)' },
  { name: 'request_log_merchant_object', on: 'request_log (merchant_id, object_id, seq)', where: 'object_id IS NOT NULL' },
];
