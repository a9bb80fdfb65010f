import type { Sinks } from '@temporalio/workflow';

/** Workflow code reports its outcome through this sink; the worker turns it into Prometheus counters. */
export interface MetricsSinks extends Sinks {
  metrics: { workflowOutcome(outcome: 'completed' | 'failed' | 'continued_as_new' | 'cancelled'): void };
}
