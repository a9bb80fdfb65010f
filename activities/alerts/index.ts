import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createTelegramUpdates } from '../../clients/telegram/telegram-updates';
import { createGateValidationStore } from '../../db/accuracy/gate-validation-store';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createBotChatStore } from '../../db/alerts/bot-chat-store';
import { createBotSendStore } from '../../db/alerts/bot-send-store';
import { createSignalRelayStore } from '../../db/alerts/signal-relay-store';
import { signalMessage } from '../../domain/alerts/alert-message';
import { ensureBotSender } from '../../workflows/alerts/bot-sender-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBotPoller } from './bot-poller';
import { createBotSender } from './bot-sender';
import { createBotWebhook } from './bot-webhook';
import { alertLiveConsumer } from './alert-live-consumer';
import { buildBotHandler } from './build-bot-handler';
import { buildAlertEvaluator, probeUrlFor } from './build-alert-evaluator';

/**
 * The alerts area: the bot's send-queue drain (with the composite-signal relay) as activities, and the bot's updates
 * received with the worker: long polling by default, or a webhook listener (BOT_UPDATES_MODE=webhook). Rule evaluation itself runs inside the live projector's refresh,
 * over the states it already holds, as the consumer this area registers on the live tick (alert-live-consumer.ts).
 */
export const alertsActivities = defineActivityArea({
  name: 'alerts',
  // Temporal is optional: without it (scripts, some tests) /upgrade leaves its workflow to billing's outbox sweep and
  // /link wallet answers that it is unavailable.
  deps: ({
    cfg,
    db,
    log,
    now,
    temporal,
    liveConsumers,
  }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now' | 'liveConsumers'> & Partial<Pick<WorkerContext, 'temporal'>>) => {
    const token = cfg.messaging.telegramBotToken;
    const holderThresholds = cfg.access.holder.thresholds;
    const probeUrl = probeUrlFor(cfg);
    const sendStore = createBotSendStore(db);
    const chatStore = createBotChatStore(db);
    const ruleStore = createAlertRuleStore(db, { holderThresholds });
    const gate = createGateValidationStore(db);
    const relay = createSignalRelayStore(db, {
      holderThresholds,
      format: (s) => signalMessage(s, probeUrl(s.mint)),
      withheld: (ids, trx) => gate.withheldCrosses(ids, trx),
    });
    const updates = token ? createTelegramUpdates({ token, apiRoot: cfg.messaging.telegramApiRoot }) : null;
    const handlerOver = buildBotHandler({ cfg, db, log, now, temporal, deleteMessage: async (chatId, messageId) => updates?.deleteMessage(chatId, messageId) });
    return {
      ruleStore,
      sendStore,
      chatStore,
      bot: token ? createTelegramBot({ token, apiRoot: cfg.messaging.telegramApiRoot }) : null,
      pacing: { perChatIntervalMs: cfg.alerts.bot.perChatIntervalMs, perSecond: cfg.alerts.bot.perSecond },
      relaySignals: (at: Date) => relay.relay(at),
      handlerOver,
      poller: updates && cfg.alerts.bot.updatesMode === 'polling' ? createBotPoller({ db, updates, handlerOver, log, timeoutS: 10 }) : null,
      webhook:
        token && cfg.alerts.bot.webhook
          ? createBotWebhook({ db, token, apiRoot: cfg.messaging.telegramApiRoot, settings: cfg.alerts.bot.webhook, handlerOver, log })
          : null,
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
    if (d.webhook) {
      const listening = await d.webhook.start();
      return () => void listening.stop();
    }
    return d.poller ? d.poller.start() : () => undefined;
  },
});
