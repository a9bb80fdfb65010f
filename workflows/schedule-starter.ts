import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';

/** One Temporal Schedule: the workflow it starts, every `everyS`, with ids `<workflowIdPrefix>-<scheduled time>`. */
export type ScheduleSpec = { scheduleId: string; workflowType: string; workflowIdPrefix: string; everyS: number; runTimeoutS: number };

/**
 * The starter of every scheduled workflow (their contracts declare the schedule): creates the Temporal Schedules, or
 * brings existing ones up to date. Idempotent, so every worker start may call it. A late tick is skipped rather than
 * queued behind a running one.
 */
export async function ensureSchedules(client: Client, taskQueue: string, specs: readonly ScheduleSpec[], triggerNow = false): Promise<void> {
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
