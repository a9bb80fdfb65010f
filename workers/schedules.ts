import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../platform/config';
import { MARKET_CONDITIONS_SCHEDULE_ID, MARKET_CONDITIONS_WORKFLOW, MARKET_CONDITIONS_WORKFLOW_ID_PREFIX } from '../workflows/market/market-conditions-contract';
import { ACCURACY_SCHEDULE_ID, ACCURACY_WORKFLOW, ACCURACY_WORKFLOW_ID_PREFIX } from '../workflows/accuracy/accuracy-contract';
import { NATIVE_COIN_PRICE_SCHEDULE_ID, NATIVE_COIN_PRICE_WORKFLOW, NATIVE_COIN_PRICE_WORKFLOW_ID_PREFIX } from '../workflows/market/native-coin-price-contract';
import { HOLDER_RECHECK_SCHEDULE_ID, HOLDER_RECHECK_WORKFLOW, HOLDER_RECHECK_WORKFLOW_ID_PREFIX } from '../workflows/access/holder-recheck-contract';
import { PAYMENT_OUTBOX_SCHEDULE_ID, PAYMENT_OUTBOX_WORKFLOW, PAYMENT_OUTBOX_WORKFLOW_ID_PREFIX } from '../workflows/billing/payment-outbox-contract';
import { WATCHDOG_SCHEDULE_ID, WATCHDOG_WORKFLOW, WATCHDOG_WORKFLOW_ID_PREFIX } from '../workflows/ops/watchdog-contract';

type ScheduleSpec = { scheduleId: string; workflowType: string; workflowIdPrefix: string; everyS: number; runTimeoutS: number };

/** Every recurring job, at the periods the typed config gives. */
export function scheduleSpecs(cfg: Config): ScheduleSpec[] {
  const o = {
    watchdogIntervalS: cfg.watchdog.intervalS,
    priceRefreshIntervalS: cfg.price.refreshIntervalS,
    conditionsRefreshS: cfg.conditions.refreshS,
    accuracyRefreshIntervalS: cfg.accuracy.refreshIntervalS,
    holderRecheckIntervalS: cfg.access.holder.recheckIntervalS,
    paymentOutboxSweepS: cfg.billing.outboxSweepS,
  };
  return [
    { scheduleId: WATCHDOG_SCHEDULE_ID, workflowType: WATCHDOG_WORKFLOW, workflowIdPrefix: WATCHDOG_WORKFLOW_ID_PREFIX, everyS: o.watchdogIntervalS, runTimeoutS: 120 },
    {
      scheduleId: NATIVE_COIN_PRICE_SCHEDULE_ID,
      workflowType: NATIVE_COIN_PRICE_WORKFLOW,
      workflowIdPrefix: NATIVE_COIN_PRICE_WORKFLOW_ID_PREFIX,
      everyS: o.priceRefreshIntervalS,
      runTimeoutS: 240,
    },
    {
      scheduleId: MARKET_CONDITIONS_SCHEDULE_ID,
      workflowType: MARKET_CONDITIONS_WORKFLOW,
      workflowIdPrefix: MARKET_CONDITIONS_WORKFLOW_ID_PREFIX,
      everyS: o.conditionsRefreshS,
      runTimeoutS: 1800,
    },
    {
      scheduleId: ACCURACY_SCHEDULE_ID,
      workflowType: ACCURACY_WORKFLOW,
      workflowIdPrefix: ACCURACY_WORKFLOW_ID_PREFIX,
      everyS: o.accuracyRefreshIntervalS,
      runTimeoutS: 600,
    },
    {
      scheduleId: HOLDER_RECHECK_SCHEDULE_ID,
      workflowType: HOLDER_RECHECK_WORKFLOW,
      workflowIdPrefix: HOLDER_RECHECK_WORKFLOW_ID_PREFIX,
      everyS: o.holderRecheckIntervalS,
      runTimeoutS: Math.max(600, o.holderRecheckIntervalS),
    },
    { scheduleId: PAYMENT_OUTBOX_SCHEDULE_ID, workflowType: PAYMENT_OUTBOX_WORKFLOW, workflowIdPrefix: PAYMENT_OUTBOX_WORKFLOW_ID_PREFIX, everyS: o.paymentOutboxSweepS, runTimeoutS: 120 },
  ];
}

/**
 * Creates the recurring jobs as Temporal Schedules, or brings existing ones up to date. Idempotent, so every
 * worker start may call it. A late tick is skipped rather than queued behind a running one.
 */
export async function ensureSchedules(client: Client, taskQueue: string, specs: ScheduleSpec[], triggerNow = false): Promise<void> {
  for (const s of specs) {
    const action = {
      type: 'startWorkflow' as const,
      workflowType: s.workflowType,
      workflowId: s.workflowIdPrefix,
      taskQueue,
      workflowRunTimeout: s.runTimeoutS * 1000,
    };
    const spec = { intervals: [{ every: s.everyS * 1000 }] };
    const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 };
    try {
      await client.schedule.create({ scheduleId: s.scheduleId, spec, action, policies, state: { triggerImmediately: triggerNow } });
    } catch (e) {
      if (!(e instanceof ScheduleAlreadyRunning)) throw e;
      await client.schedule.getHandle(s.scheduleId).update((prev) => ({ ...prev, spec, action, policies }));
    }
  }
}
