import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createBotChatStore } from '../../db/alerts/bot-chat-store';
import { createBotSendStore } from '../../db/alerts/bot-send-store';
import { createSignalRelayStore } from '../../db/alerts/signal-relay-store';
import { signalMessage } from '../../domain/alerts/alert-message';
import { probeUrlFor } from '../../platform/config';
import { ensureBotSender } from '../../workflows/alerts/bot-sender-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBotSender } from './bot-sender';
import { alertLiveConsumer } from './alert-live-consumer';
import { buildAlertEvaluator } from './build-alert-evaluator';

/**
 * The alerts area: the bot's send-queue drain (with the composite-signal relay) as activities. The bot's updates
 * (commands) are received by a process of its own (bot/main-bot.ts), which queues its replies here. Rule evaluation
 * runs inside the live projector's refresh, over the states it already holds, as the consumer this area registers on
 * the live tick (alert-live-consumer.ts).
 */
export const alertsActivities = defineActivityArea({
  name: 'alerts',
  deps: ({ cfg, db, now, liveConsumers }: Pick<WorkerContext, 'cfg' | 'db' | 'now' | 'liveConsumers'>) => {
    const token = cfg.messaging.telegramBotToken;
    const holderThresholds = cfg.access.holder.thresholds;
    const probeUrl = probeUrlFor(cfg);
    const gate = createGateValidationStore(db);
    const relay = createSignalRelayStore(db, {
      holderThresholds,
      format: (s) => signalMessage(s, probeUrl(s.mint)),
      withheld: (ids, trx) => gate.withheldCrosses(ids, trx),
    });
    return {
      ruleStore: createAlertRuleStore(db, { holderThresholds }),
      sendStore: createBotSendStore(db),
      chatStore: createBotChatStore(db),
      bot: token ? createTelegramBot({ token, apiRoot: cfg.messaging.telegramApiRoot }) : null,
      pacing: { perChatIntervalMs: cfg.alerts.bot.perChatIntervalMs, perSecond: cfg.alerts.bot.perSecond },
      relaySignals: (at: Date) => relay.relay(at),
      auditGradProb: cfg.alerts.auditGradProb,
      alertEvaluator: buildAlertEvaluator({ cfg, db }),
      liveConsumers,
      now,
    };
  },
  activities: (d) => {
    d.liveConsumers.register('alerts', alertLiveConsumer(d.alertEvaluator));
    return createBotSender(d);
  },
  start: async (d, { cfg, temporal }) => {
    // The audited house rule follows the configuration: a new threshold retires the old rule and starts a new one.
    await d.ruleStore.ensureHouseRule('grad_prob', d.auditGradProb, d.now());
    await ensureBotSender(temporal, cfg.temporal.taskQueue);
    return () => undefined;
  },
});
