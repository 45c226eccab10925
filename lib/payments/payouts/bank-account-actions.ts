import { VALIDATION_TTL_SECONDS, type BankAccountValidation } from '../../contract';
import { lookUpAccount } from './bank-accounts';
import { newId } from '../pipeline/random-id';
import { readAction } from '../pipeline/action';

interface ValidationRow {
  id: string;
  bank_code: string;
  account_last4: string;
  status: 'valid' | 'invalid';
  account_holder_name: string | null;
  failure_code: string | null;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = 'id, bank_code, account_last4, status, account_holder_name, failure_code, created_at, expires_at';

const validationObject = (r: ValidationRow): BankAccountValidation => ({
  object: 'bank_account_validation',
  id: r.id,
  bank_code: r.bank_code,
  account_last4: r.account_last4,
  status: r.status,
  account_holder_name: r.account_holder_name,
  failure_code: r.failure_code,
  created_at: new Date(r.created_at).toISOString(),
  expires_at: new Date(r.expires_at).toISOString(),
  livemode: false,
});

/**
 * validate_bank_account: the bank's holder name for an account, before a payout.
 * A result is kept for 24 hours per merchant, bank and account and answered again
 * (same id) in that time: the account number only as a keyed digest (never in
 * clear, never logged) and its last four digits.
 */
export const validateBankAccount = readAction('validate_bank_account', async ({ db, merchant, settings }, input) => {
  const digest = settings.secretBox.digest('bank-account', `${input.bank_code}:${input.account_number}`);
  const found = lookUpAccount(input.bank_code, input.account_number);
  // A fresh result replaces an expired one; a live one is answered as it is.
  const [fresh] = await db.query<ValidationRow>(
    `INSERT INTO bank_account_validations (id, merchant_id, bank_code, account_digest, account_last4, status, account_holder_name, failure_code, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, app_now() + make_interval(secs => $9))
     ON CONFLICT (merchant_id, bank_code, account_digest) DO UPDATE
       SET id = EXCLUDED.id, status = EXCLUDED.status, account_holder_name = EXCLUDED.account_holder_name,
           failure_code = EXCLUDED.failure_code, created_at = app_now(), expires_at = EXCLUDED.expires_at
       WHERE bank_account_validations.expires_at <= app_now()
     RETURNING ${COLUMNS}`,
    [
      newId('bav'),
      merchant.id,
      input.bank_code,
      digest,
      input.account_number.slice(-4),
      found.status,
      found.holderName,
      found.failureCode,
      VALIDATION_TTL_SECONDS,
    ],
  );
  if (fresh) return validationObject(fresh);
  const [kept] = await db.query<ValidationRow>(
    `SELECT ${COLUMNS} FROM bank_account_validations WHERE merchant_id = $1 AND bank_code = $2 AND account_digest = $3`,
    [merchant.id, input.bank_code, digest],
  );
  return validationObject(kept!);
});
