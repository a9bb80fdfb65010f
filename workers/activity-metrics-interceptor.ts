import type { Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import type { Metrics } from '../platform/metrics';

/** Counts every activity attempt by type and outcome, and times it. */
export function activityMetricsInterceptor(metrics: Metrics) {
  return (ctx: Context): { inbound: ActivityInboundCallsInterceptor } => ({
    inbound: {
      async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
        const type = ctx.info.activityType;
        const end = metrics.activityDuration.startTimer({ activity_type: type });
        try {
          const r = await next(input);
          metrics.activityOutcomes.inc({ activity_type: type, outcome: 'completed' });
          return r;
        } catch (e) {
          metrics.activityOutcomes.inc({ activity_type: type, outcome: 'failed' });
          throw e;
        } finally {
          end();
        }
      },
    },
  });
}
