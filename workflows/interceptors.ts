import {
  ContinueAsNew,
  isCancellation,
  proxySinks,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type Next,
} from '@temporalio/workflow';
import type { MetricsSinks } from './metrics-sink';

const { metrics } = proxySinks<MetricsSinks>();

class OutcomeInterceptor implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      const result = await next(input);
      metrics.workflowOutcome('completed');
      return result;
    } catch (err) {
      if (err instanceof ContinueAsNew) metrics.workflowOutcome('continued_as_new');
      else if (isCancellation(err)) metrics.workflowOutcome('cancelled');
      else metrics.workflowOutcome('failed');
      throw err;
    }
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ inbound: [new OutcomeInterceptor()] });
