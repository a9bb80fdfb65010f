import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createTelegramUpdates } from '../../clients/telegram/telegram-updates';
import { createApiKeyStore } from '../../db/access/api-key-store';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createBotChatStore } from '../../db/alerts/bot-chat-store';
import { createBotSendStore } from '../../db/alerts/bot-send-store';
import { createSignalRelayStore } from '../../db/alerts/signal-relay-store';
import { createWatchlistStore } from '../../db/alerts/watchlist-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { signalMessage } from '../../domain/alerts/alert-message';
import { ensureBotSender } from '../../workflows/alerts/bot-sender-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBotPoller } from './bot-poller';
import { createBotSender } from './bot-sender';
import { createBotUpdateHandler } from './bot-update-handler';
import { probeUrlFor } from './build-alert-evaluator';

/**
 * The alerts area: the bot's send-queue drain (with the composite-signal relay) as activities, and the bot's long
 * polling started with the worker. Rule evaluation itself runs inside the live projector's refresh (mint area),
 * over the states it already holds: see alert-evaluator.ts.
 */
export const alertsActivities = defineActivityArea({
  name: 'alerts',
  deps: ({ cfg, db, log, now }: Pick<WorkerContext, 'cfg' | 'db' | 'log' | 'now'>) => {
    const token = cfg.messaging.telegramBotToken;
    const holderThresholds = cfg.access.holder.thresholds;
    const probeUrl = probeUrlFor(cfg);
    const sendStore = createBotSendStore(db);
    const chatStore = createBotChatStore(db);
    const ruleStore = createAlertRuleStore(db, { holderThresholds });
    const relay = createSignalRelayStore(db, { holderThresholds, format: (s) => signalMessage(s, probeUrl(s.mint)) });
    const updates = token ? createTelegramUpdates({ token, apiRoot: cfg.messaging.telegramApiRoot }) : null;
    const handler = createBotUpdateHandler({
      keyStore: createApiKeyStore(db),
      ruleStore,
      chatStore,
      sendStore,
      watchlistStore: createWatchlistStore(db, { holderThresholds }),
      predictionStore: createPredictionStore(db),
      holderThresholds,
      probeUrl,
      upgradeUrl: `${(cfg.api.publicBaseUrl ?? '').replace(/\/+$/, '')}/api/upgrade`,
      deleteMessage: async (chatId, messageId) => updates?.deleteMessage(chatId, messageId),
      now,
    });
    return {
      ruleStore,
      sendStore,
      chatStore,
      bot: token ? createTelegramBot({ token, apiRoot: cfg.messaging.telegramApiRoot }) : null,
      pacing: { perChatIntervalMs: cfg.alerts.bot.perChatIntervalMs, perSecond: cfg.alerts.bot.perSecond },
      relaySignals: (at: Date) => relay.relay(at),
      poller: updates && cfg.alerts.bot.updatesMode === 'polling' ? createBotPoller({ db, updates, handler, log, timeoutS: 10 }) : null,
      auditGradProb: cfg.alerts.auditGradProb,
      now,
    };
  },
  activities: (d) => createBotSender(d),
  start: async (d, { cfg, temporal }) => {
    // The audited house rule follows the configuration: a new threshold retires the old rule and starts a new one.
    await d.ruleStore.ensureHouseRule('grad_prob', d.auditGradProb, d.now());
    await ensureBotSender(temporal, cfg.temporal.taskQueue);
    return d.poller ? d.poller.start() : () => undefined;
  },
});
