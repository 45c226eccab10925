/** Who makes a request: the merchant, and the key it authenticated with (authenticate.ts reads both at once). */

export interface Merchant {
  id: string;
  name: string;
  currency: string;
  /** The IANA zone its periods are read in (update_account_settings; Asia/Jakarta by default). */
  timeZone: string;
  /** Which of its payouts wait for approval (read with the key; absent: none do). */
  payoutApproval?: ApprovalPolicy;
  /** Set when the merchant is a sandbox of another (read with the key). */
  sandbox?: SandboxOf;
}

/** A sandbox merchant's sandbox: its id, its parent, and its test clock's time when it has one (null: the wall clock). */
export interface SandboxOf {
  id: string;
  parentId: string;
  clockNow: Date | null;
}

/** The merchant's payout approval policy (update_payout_approval_policy). */
export interface ApprovalPolicy {
  required: boolean;
  /** Payouts above this amount are caught; 0: every payout. */
  aboveAmount: number;
  forKeys: 'restricted' | 'all';
}

/** The key that made a request: what it may do, and who it is in the objects it creates. */
export interface CallerKey {
  id: string;
  type: 'secret' | 'restricted';
  name: string | null;
  /** null: a secret key, which may do everything. */
  permissions: string[] | null;
  maxPayoutAmount: number | null;
  /** Its last use was recorded more than a minute ago (or never): record this one. */
  lastUseStale: boolean;
}

/** Who made an object, as its `created_by` shows it (a snapshot: the key may be revoked later). */
export const createdBy = (key: CallerKey) => ({ key_id: key.id, key_name: key.name, type: key.type });
