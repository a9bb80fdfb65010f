import { continueAsNew, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { BotSenderActivities } from '../../activities/alerts/bot-sender';
import type { BotSenderInput } from './bot-sender-contract';

// A drain runs for drainMs and heartbeats; a worker that dies mid-drain is noticed within the heartbeat timeout and
// the next attempt (on any worker) resumes from the queue in Postgres.
const acts = proxyActivities<BotSenderActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** Drains the bot's durable send queue forever, one drain at a time; continues as new after `iterationsPerRun` drains. */
export async function botSender(input: BotSenderInput): Promise<void> {
  for (let i = 0; i < input.iterationsPerRun; i++) {
    try {
      await acts.drainBotSends({ maxMs: input.drainMs });
    } catch (err) {
      log.warn('bot send drain failed', { error: String(err) });
      await sleep(1000);
    }
  }
  await continueAsNew<typeof botSender>(input);
}
