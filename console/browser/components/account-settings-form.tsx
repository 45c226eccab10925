'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { fieldMessage } from '@/console/browser/messages';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { timeZoneField, type AccountSettings } from '@/lib/contract/account-settings';
import { formatMoney, zoneLabel } from '@/lib/format';
import { AmountInput, groupThousands, parseAmount } from './amount-input';
import { ErrorText } from './error-text';
import { StaleIntent } from './stale-intent';

type SettingsInput = { time_zone: string; low_balance_threshold: number | null };
type Field = keyof SettingsInput;

/**
 * The merchant's time zone (an IANA name, searched in a list of the zones the server knows) and its
 * low-balance threshold (empty: no alert). One save, one idempotency key; the API's 400 names the field.
 * A new zone re-renders the pages on the server, so every time shown moves to it at once.
 */
export function AccountSettingsForm({
  initial,
  zones,
  retentionSeconds,
}: {
  initial: AccountSettings;
  /** timeZoneChoices() as the server read it: the list is the same before and after hydration. */
  zones: string[];
  retentionSeconds: number;
}) {
  const router = useRouter();
  const intent = useIdempotentMutation<SettingsInput, AccountSettings>({
    path: '/api/account-settings',
    storageKey: 'console.account-settings-intent',
    invalidates: [consoleKeys.accountSettings()],
    retentionSeconds,
  });
  const [zone, setZone] = useState(initial.time_zone);
  const [threshold, setThreshold] = useState(
    initial.low_balance_threshold === null ? '' : groupThousands(String(initial.low_balance_threshold)),
  );
  const [invalid, setInvalid] = useState<{ field: Field; message: string } | null>(null);
  const { mutation } = intent;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsedZone = timeZoneField.safeParse(zone.trim());
    if (!parsedZone.success) return setInvalid({ field: 'time_zone', message: fieldMessage('time_zone', parsedZone.error.issues[0]!)! });
    const amount = parseAmount(threshold);
    if (amount !== undefined && !Number.isSafeInteger(amount))
      return setInvalid({ field: 'low_balance_threshold', message: fieldMessage('low_balance_threshold', { code: 'invalid' })! });
    setInvalid(null);
    intent.send({ time_zone: parsedZone.data, low_balance_threshold: amount ?? null });
  }

  // A new zone: the pages are rendered again on the server, so the shell and every time move to it.
  useEffect(() => {
    if (mutation.isSuccess) router.refresh();
  }, [mutation.isSuccess, router]);

  // The API's refusal of one field is shown at that field, as the form's own check is.
  const refused =
    mutation.isError && (mutation.error.param === 'time_zone' || mutation.error.param === 'low_balance_threshold')
      ? mutation.error.param
      : null;
  const errorAt = (field: Field): ReactNode =>
    invalid?.field === field ? invalid.message : refused === field ? <ErrorText error={mutation.error!} /> : null;
  const current = mutation.data ?? initial;

  if (intent.staleIntent)
    return <StaleIntent what="A change of settings" checkIn="the settings shown after a reload" onDismiss={intent.dismissStale} />;

  return (
    <form
      onSubmit={submit}
      noValidate
      onChange={() => {
        if (mutation.isError && !mutation.error.outcomeUnknown) intent.reset();
      }}
    >
      <p data-testid="settings-now">
        Now: times and days in {zoneLabel(current.time_zone)} ({current.time_zone});{' '}
        {current.low_balance_threshold === null
          ? 'no low-balance alert.'
          : `an alert when the available balance falls below ${formatMoney(current.low_balance_threshold, 'IDR')}.`}
      </p>
      <div className="field">
        <label htmlFor="settings-time-zone">Time zone</label>
        <input
          id="settings-time-zone"
          list="settings-time-zones"
          value={zone}
          onChange={(e) => setZone(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={errorAt('time_zone') ? 'settings-time-zone-error' : 'settings-time-zone-hint'}
          aria-invalid={errorAt('time_zone') ? true : undefined}
        />
        <datalist id="settings-time-zones">
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <span id="settings-time-zone-hint" className="field-hint">
          Type to search, such as Asia/Jakarta (WIB), Asia/Makassar (WITA) or Asia/Jayapura (WIT). Statements, summaries and every time in
          this console follow it.
        </span>
        {errorAt('time_zone') && (
          <span id="settings-time-zone-error" className="error" role="alert" data-testid="field-error">
            {errorAt('time_zone')}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="settings-threshold">Low-balance alert below (IDR)</label>
        <AmountInput
          id="settings-threshold"
          value={threshold}
          onValue={setThreshold}
          aria-describedby={errorAt('low_balance_threshold') ? 'settings-threshold-error' : 'settings-threshold-hint'}
          aria-invalid={errorAt('low_balance_threshold') ? true : undefined}
        />
        <span id="settings-threshold-hint" className="field-hint">
          Empty: no alert. Below it, a balance.low event is sent once; back at it or above, balance.recovered.
        </span>
        {errorAt('low_balance_threshold') && (
          <span id="settings-threshold-error" className="error" role="alert" data-testid="field-error">
            {errorAt('low_balance_threshold')}
          </span>
        )}
      </div>
      {mutation.isSuccess ? (
        <p className="success" role="status" data-testid="settings-saved">
          Saved.{' '}
          <button type="button" className="secondary" onClick={intent.reset}>
            Change them again
          </button>
        </p>
      ) : (
        <button type="submit" disabled={mutation.isPending}>
          Save settings
        </button>
      )}
      {mutation.isPending && (
        <p className="muted" role="status">
          Saving…
        </p>
      )}
      {mutation.isError && !refused && (
        <p className="error" role="alert" data-testid="settings-error">
          Not saved: <ErrorText error={mutation.error} />
        </p>
      )}
    </form>
  );
}
