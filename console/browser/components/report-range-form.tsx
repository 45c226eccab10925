'use client';
import { useState, type FormEvent } from 'react';
import { MAX_STATEMENT_DAYS } from '@/lib/contract/statements';
import { rangeProblem } from '@/console/browser/report-period';

/**
 * The reports page's range of days, a plain GET form. A range it cannot show (the end before the start, too
 * long) is stopped here with what to do, and the statement on the page stays; without JavaScript the page
 * says the same (`problem`, from the server) above the default statement.
 */
export function ReportRangeForm({ from, to, problem }: { from: string; to: string; problem: string | null }) {
  const [error, setError] = useState(problem);
  const check = (e: FormEvent<HTMLFormElement>) => {
    const data = new FormData(e.currentTarget);
    const found = rangeProblem({ from: String(data.get('from') ?? ''), to: String(data.get('to') ?? '') }, MAX_STATEMENT_DAYS);
    setError(found);
    if (found) e.preventDefault();
  };
  return (
    <>
      <form method="get" action="/reports" className="inline-form" onSubmit={check}>
        <label>
          From
          <input type="date" name="from" defaultValue={from} required />
        </label>
        <label>
          To
          <input
            type="date"
            name="to"
            defaultValue={to}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'range-error' : undefined}
          />
        </label>
        <button type="submit">Show range</button>
      </form>
      {error && (
        <p id="range-error" role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}
