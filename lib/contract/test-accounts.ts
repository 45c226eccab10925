/**
 * Test-mode accounts and what each does to a payout. Pure data: the console shows
 * them beside the payout form; the core settles by them. Banks and limits: fields.ts.
 */

export type SimulatedOutcome =
  | { kind: 'paid' }
  | { kind: 'failed'; failureCode: string; failureMessage: string }
  | { kind: 'slow'; delaySeconds: number }
  /** Paid after the settlement delay, then returned by the receiving bank one settlement delay later. */
  | { kind: 'returned'; failureCode: PayoutReturnCode };

/** Why a payout can fail, and what the API says about it (the failing test accounts, and simulate_payout). */
export const PAYOUT_FAILURES = {
  invalid_account: 'The account number does not exist at the receiving bank.',
  rejected_by_bank: 'The receiving bank rejected the transfer.',
} as const;
export type PayoutFailureCode = keyof typeof PAYOUT_FAILURES;
export const PAYOUT_FAILURE_CODES = Object.keys(PAYOUT_FAILURES) as [PayoutFailureCode, ...PayoutFailureCode[]];

/** Why the receiving bank can send a paid payout back (a return: status returned, the amount back in available). */
export const PAYOUT_RETURNS = {
  account_closed: 'The receiving bank returned the transfer: the account is closed.',
  account_frozen: 'The receiving bank returned the transfer: the account is frozen.',
  returned_by_bank: 'The receiving bank returned the transfer.',
} as const;
export type PayoutReturnCode = keyof typeof PAYOUT_RETURNS;
export const PAYOUT_RETURN_CODES = Object.keys(PAYOUT_RETURNS) as [PayoutReturnCode, ...PayoutReturnCode[]];
/** What simulate_payout uses when it returns a payout without a failure_code. */
export const DEFAULT_RETURN_CODE: PayoutReturnCode = 'account_closed';

/** Account numbers that drive each path of an integration; every other valid account is paid. */
export const TEST_ACCOUNTS: Readonly<Record<string, { outcome: SimulatedOutcome; description: string }>> = {
  '4000000001': {
    description: 'fails with invalid_account',
    outcome: { kind: 'failed', failureCode: 'invalid_account', failureMessage: PAYOUT_FAILURES.invalid_account },
  },
  '4000000002': {
    description: 'fails with rejected_by_bank',
    outcome: { kind: 'failed', failureCode: 'rejected_by_bank', failureMessage: PAYOUT_FAILURES.rejected_by_bank },
  },
  '4000000003': {
    description: 'stays pending for one hour, then is paid',
    outcome: { kind: 'slow', delaySeconds: 3600 },
  },
  '4000000004': {
    description: 'is paid, then returned (account_closed) one settlement delay later',
    outcome: { kind: 'returned', failureCode: 'account_closed' },
  },
};

/** The test accounts whose paid payouts the bank returns later, for the settlement statement that pays them. */
export const RETURNING_TEST_ACCOUNTS = Object.keys(TEST_ACCOUNTS).filter((n) => TEST_ACCOUNTS[n]!.outcome.kind === 'returned');

export const simulatedOutcome = (accountNumber: string): SimulatedOutcome => TEST_ACCOUNTS[accountNumber]?.outcome ?? { kind: 'paid' };

/** "•••• 6789": all the console and the API ever show of an account number. */
export const maskAccountNumber = (accountNumber: string) => `•••• ${accountNumber.slice(-4)}`;
