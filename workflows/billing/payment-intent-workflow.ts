import { ActivityFailure, continueAsNew, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/billing/payment-activities';
import { paymentStateQuery, type PaymentIntentInput, type PaymentIntentState } from './payment-intent-contract';
import { nowMs, sleepUntil } from '../workflow-time';

// Steps that must happen (the final look at the treasury, activation, the plan's end): retried until the RPC node
// or the database is back. Each is idempotent, keyed by the intent, so a retry never activates twice.
const must = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const failureMessage = (err: ActivityFailure) => (err.cause?.message ?? err.message).slice(0, 300);

/**
 * One payment intent, workflow id `payment:<memo>`: poll the treasury until the memo's payment is complete or the
 * intent expires, activate the plan once, remind the payer before the plan ends, and revert the key at its end
 * unless it was renewed (a later intent for the same key moved its end further out).
 */
export async function paymentIntent(input: PaymentIntentInput, carried?: PaymentIntentState): Promise<PaymentIntentState> {
  const { memo, timing } = input;
  const pollMs = timing.pollIntervalS * 1000;
  const expiresMs = Date.parse(input.expiresAt);
  // A routine poll tries briefly: the next poll is seconds away, and a node that is down stays visible in state.
  const poll = proxyActivities<PaymentActivities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: pollMs, maximumAttempts: 3 },
  });
  // The renewal reminder: a few tries, then recorded as failed (the plan still ends on time).
  const remind = proxyActivities<PaymentActivities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: timing.reminderRetry.initialIntervalS * 1000,
      backoffCoefficient: 2,
      maximumInterval: '10 minutes',
      maximumAttempts: timing.reminderRetry.maximumAttempts,
    },
  });
  const state: PaymentIntentState = carried ?? {
    phase: 'awaiting_payment',
    polls: 0,
    failedPolls: 0,
    lastError: null,
    lastCheck: null,
    activation: null,
    reminder: null,
    end: null,
  };
  setHandler(paymentStateQuery, () => state);

  let pollsThisRun = 0;
  for (;;) {
    const final = nowMs() >= expiresMs;
    if (!final && pollsThisRun >= timing.maxPollsPerRun) await continueAsNew<typeof paymentIntent>(input, state);
    pollsThisRun++;
    state.polls++;
    try {
      state.lastCheck = await (final ? must : poll).checkPayment({ memo, final });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      state.failedPolls++;
      state.lastError = failureMessage(err);
      await sleep(Math.min(pollMs, Math.max(1, expiresMs - nowMs())));
      continue;
    }
    const status = state.lastCheck.status;
    if (status === 'paid' || status === 'activated') break;
    if (final) {
      state.phase = status === 'underpaid' ? 'underpaid' : 'expired';
      return state;
    }
    // Wake at the expiry instant for the final check rather than up to one interval after it.
    await sleep(Math.min(pollMs, Math.max(1, expiresMs - nowMs())));
  }

  state.activation = await must.activatePlan({ memo });
  state.phase = 'active';
  const planEndMs = Date.parse(state.activation.planExpiresAt);

  await sleepUntil(planEndMs - timing.reminderLeadS * 1000);
  try {
    state.reminder = await remind.sendPlanReminder({ memo });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    state.reminder = await must.recordReminderFailure({ memo, error: failureMessage(err) });
  }

  await sleepUntil(planEndMs);
  state.end = await must.endPlan({ memo });
  state.phase = 'ended';
  return state;
}
