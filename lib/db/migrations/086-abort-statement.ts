/**
 * Ends the statement that calls it with an error, rolling back everything the statement wrote: a
 * statement that is its own transaction (a lone withdrawal, payouts/withdraw-one-statement.ts) uses it
 * to undo its claim of a key when the balance no longer covered the amount by the time it was locked.
 * VOLATILE, so the planner never folds a call away or runs it early.
 */
export const sql = /* sql */ `
CREATE FUNCTION abort_statement(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason, HINT = 'abort_statement';
END $$;
`;
