import { sql as initialSchema } from './001-initial-schema';
import { sql as pendingPayouts } from './002-pending-payouts';
import { sql as hardening } from './003-hardening';
import { sql as payoutBatches } from './004-payout-batches';
import { sql as testTopups } from './005-test-topups';
import { sql as eventsWebhooks } from './006-events-webhooks';
import { sql as restrictedKeys } from './007-restricted-keys';
import { sql as requestLog } from './008-request-log';
import { sql as consoleSessionsOwnStore } from './009-console-sessions-own-store';
import { sql as dailyFigures } from './010-daily-figures';
import { sql as eventCopies } from './011-event-copies';
import { readIndexes, replacedIndexes } from './012-read-indexes';
import { sql as batchCounts } from './013-batch-counts';
import { sql as payoutApprovals } from './020-payout-approvals';
import { sql as refunds } from './030-refunds';
import { sql as accountSettings } from './040-account-settings';
import { sql as ledgerFigures } from './041-ledger-figures';
import { ledgerTimeIndexes, replacedLedgerTimeIndexes } from './042-ledger-time-index';
import { sql as payoutReturns } from './045-payout-returns';
import { sql as payoutStates } from './050-payout-states';
import { backfill as payoutStatesBackfill } from './051-payout-states-backfill';
import { droppedStatusIndexes } from './052-payout-status-indexes';
import { sql as idempotencyAnswerRef } from './060-idempotency-answer-ref';
import { batchIndex, replacedBatchIndexes } from './070-batch-index';
import { replacedTransitionIndexes, transitionIndex } from './071-transition-index';
import { merchantHashIndexes, replacedMerchantIndexes } from './072-merchant-hash-indexes';
import { ledgerTimeHashIndexes, replacedLedgerTimeHashIndexes } from './073-ledger-time-hash-index';
import { ledgerSourceIndexes, replacedLedgerSourceIndexes } from './074-ledger-source-index';
import { sql as batchCreatedBy } from './075-batch-created-by';
import { sql as orderedIds } from './076-ordered-ids';
import { sql as sandboxes } from './077-sandboxes';
import { sql as testClock } from './078-test-clock';
import { sql as requestOrigin } from './079-request-origin';
import { sql as bankOutages } from './085-bank-outages';
import { sql as abortStatement } from './086-abort-statement';
import { sql as ledgerFineFigures, backfill as ledgerFineFiguresBackfill } from './087-ledger-fine-figures';
import { sql as payoutStatesLast4, backfill as payoutStatesLast4Backfill, last4Index } from './089-payout-states-last4';
import { requestLogSearchIndexes } from './080-request-log-search';
import { merchantIndexes, replacedMerchantHashIndexes } from './081-merchant-indexes';
import { sql as payoutStatesEveryStatus } from './082-payout-states-every-status';
import { backfill as payoutStatesPaidBackfill } from './083-payout-states-paid-backfill';

import type { Migration } from './migration';

export type { IndexStep, Migration } from './migration';

/**
 * Versioned migrations, applied in order by `migrate`. Never edit one that has
 * shipped: add the next number. Kept as TypeScript strings so that the Next
 * server bundle, the CLI and the tests all carry them without file look-ups.
 */
export const migrations: ReadonlyArray<Migration> = [
  { version: 1, name: 'initial-schema', sql: initialSchema },
  { version: 2, name: 'pending-payouts', sql: pendingPayouts },
  { version: 3, name: 'hardening', sql: hardening },
  { version: 4, name: 'payout-batches', sql: payoutBatches },
  { version: 5, name: 'test-topups', sql: testTopups },
  { version: 6, name: 'events-webhooks', sql: eventsWebhooks },
  { version: 7, name: 'restricted-keys', sql: restrictedKeys },
  { version: 8, name: 'request-log', sql: requestLog },
  { version: 9, name: 'console-sessions-own-store', sql: consoleSessionsOwnStore },
  { version: 10, name: 'daily-figures', sql: dailyFigures },
  { version: 11, name: 'event-copies', sql: eventCopies },
  { version: 12, name: 'read-indexes', indexes: readIndexes, drop: replacedIndexes },
  { version: 13, name: 'batch-counts', sql: batchCounts },
  { version: 20, name: 'payout-approvals', sql: payoutApprovals },
  { version: 30, name: 'refunds', sql: refunds },
  { version: 40, name: 'account-settings', sql: accountSettings },
  { version: 41, name: 'ledger-figures', sql: ledgerFigures },
  { version: 42, name: 'ledger-time-index', indexes: ledgerTimeIndexes, drop: replacedLedgerTimeIndexes },
  { version: 45, name: 'payout-returns', sql: payoutReturns },
  { version: 50, name: 'payout-states', sql: payoutStates },
  { version: 51, name: 'payout-states-backfill', ...payoutStatesBackfill },
  { version: 52, name: 'payout-status-indexes', indexes: [], drop: droppedStatusIndexes },
  { version: 60, name: 'idempotency-answer-ref', sql: idempotencyAnswerRef },
  { version: 70, name: 'batch-index', indexes: [batchIndex], drop: replacedBatchIndexes },
  { version: 71, name: 'transition-index', indexes: [transitionIndex], drop: replacedTransitionIndexes },
  { version: 72, name: 'merchant-hash-indexes', indexes: merchantHashIndexes, drop: replacedMerchantIndexes },
  { version: 73, name: 'ledger-time-hash-index', indexes: ledgerTimeHashIndexes, drop: replacedLedgerTimeHashIndexes },
  { version: 74, name: 'ledger-source-index', indexes: ledgerSourceIndexes, drop: replacedLedgerSourceIndexes },
  { version: 75, name: 'batch-created-by', sql: batchCreatedBy },
  { version: 76, name: 'ordered-ids', sql: orderedIds },
  { version: 77, name: 'sandboxes', sql: sandboxes },
  { version: 78, name: 'test-clock', sql: testClock },
  { version: 79, name: 'request-origin', sql: requestOrigin },
  { version: 80, name: 'request-log-search', indexes: requestLogSearchIndexes },
  { version: 81, name: 'merchant-indexes', indexes: merchantIndexes, drop: replacedMerchantHashIndexes },
  { version: 82, name: 'payout-states-every-status', sql: payoutStatesEveryStatus },
  { version: 83, name: 'payout-states-paid-backfill', ...payoutStatesPaidBackfill },
  { version: 85, name: 'bank-outages', sql: bankOutages },
  { version: 86, name: 'abort-statement', sql: abortStatement },
  { version: 87, name: 'ledger-fine-figures', sql: ledgerFineFigures },
  { version: 88, name: 'ledger-fine-figures-backfill', ...ledgerFineFiguresBackfill },
  { version: 89, name: 'payout-states-last4', sql: payoutStatesLast4 },
  { version: 90, name: 'payout-states-last4-backfill', ...payoutStatesLast4Backfill },
  { version: 91, name: 'payout-states-last4-index', indexes: [last4Index] },
];
