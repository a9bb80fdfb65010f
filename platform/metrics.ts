import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process, built by its composition root. */
export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(processName: string, labels: Record<string, string> = {}) {
  const registry = new Registry();
  registry.setDefaultLabels({ process: processName, ...labels });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    workflowOutcomes: new Counter({
      name: 'temporal_workflow_outcomes_total',
      help: 'Workflow executions finished on this worker, by type and outcome',
      labelNames: ['workflow_type', 'outcome'] as const,
      registers: [registry],
    }),
    activityOutcomes: new Counter({
      name: 'temporal_activity_outcomes_total',
      help: 'Activity attempts finished on this worker, by type and outcome',
      labelNames: ['activity_type', 'outcome'] as const,
      registers: [registry],
    }),
    activityDuration: new Histogram({
      name: 'temporal_activity_duration_seconds',
      help: 'Activity attempt duration by type',
      labelNames: ['activity_type'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
  };
}
