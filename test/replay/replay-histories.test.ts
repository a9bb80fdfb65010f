import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, Runtime, DefaultLogger } from '@temporalio/worker';
import * as workflows from '../../workflows';
import { readTestEnv } from '../support/test-env';

/**
 * Replays every recorded history of a completed workflow against today's workflow code. A change that would
 * make a running workflow take a different path (non-determinism) fails here before it reaches a server.
 * Record new histories with `npm run record-histories` (the workflow tests with RECORD_HISTORIES=1). Every workflow
 * the worker registers (workflows/index.ts) must have one.
 */
const dir = path.join(__dirname, 'histories');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));

beforeAll(() => {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    /* already installed in this process */
  }
});

describe('recorded workflow histories replay against today’s code', () => {
  it('has histories of every workflow type the worker registers', () => {
    const types = new Set(
      files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).history.events[0].workflowExecutionStartedEventAttributes.workflowType.name),
    );
    expect([...types].sort()).toEqual(Object.keys(workflows).sort());
  });

  it.each(files)('%s', async (file) => {
    const { workflowId, history } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    // The metrics sink is registered as in production; sinks are not called during replay.
    const sinks = { metrics: { workflowOutcome: { fn: () => undefined } } };
    await Worker.runReplayHistory({ workflowBundle: { codePath: readTestEnv().workflowBundlePath }, sinks }, historyFromJSON(history), workflowId);
  });
});
