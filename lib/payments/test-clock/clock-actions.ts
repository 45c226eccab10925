import { ApiError, MAX_CLOCK_ADVANCE_SECONDS } from '../../contract';
import { readAction, writeAction } from '../pipeline/action';
import { advanceClock } from './advance';

/** get_test_clock and advance_test_clock (docs/testing-your-integration.md, "The test clock"): the sandbox's own key moves its clock. */

const noClock = () =>
  new ApiError('invalid_request', 'This merchant has no test clock: only a sandbox made with test_clock: true has one.', 'action');

export const getTestClock = readAction('get_test_clock', async ({ db, merchant }) => {
  if (!merchant.sandbox?.clockNow) throw noClock();
  const [row] = await db.query<{ clock_now: Date }>('SELECT clock_now FROM sandboxes WHERE id = $1', [merchant.sandbox.id]);
  return { object: 'test_clock' as const, sandbox_id: merchant.sandbox.id, now: new Date(row!.clock_now).toISOString() };
});

export const advanceTestClock = writeAction('advance_test_clock', async ({ db, merchant, origin }, input) => {
  if (!merchant.sandbox?.clockNow) throw noClock();
  if ((input.seconds === undefined) === (input.to === undefined)) {
    throw new ApiError('invalid_request', 'Give either seconds or to, not both.', input.seconds === undefined ? 'seconds' : 'to');
  }
  // Locked: concurrent advances of one clock run one after the other, each from where the last one left it.
  const [row] = await db.query<{ clock_now: Date }>('SELECT clock_now FROM sandboxes WHERE id = $1 FOR UPDATE', [merchant.sandbox.id]);
  const from = new Date(row!.clock_now);
  const to = input.to === undefined ? new Date(from.getTime() + input.seconds! * 1000) : new Date(input.to);
  if (to.getTime() < from.getTime()) {
    throw new ApiError('invalid_request', `to must not be before the clock's time (${from.toISOString()}): a clock never goes back.`, 'to');
  }
  if (to.getTime() - from.getTime() > MAX_CLOCK_ADVANCE_SECONDS * 1000) {
    throw new ApiError('invalid_request', "to must be at most 31 days after the clock's time: advance in several calls.", 'to');
  }
  await advanceClock(db, { id: merchant.sandbox.id, merchantId: merchant.id }, from, to, origin);
  return { object: 'test_clock' as const, sandbox_id: merchant.sandbox.id, now: to.toISOString() };
});
