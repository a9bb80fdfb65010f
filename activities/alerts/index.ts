import { createTelegramBot } from '../../clients/telegram/telegram-bot';
import { createAlertRuleStore } from '../../db/alerts/alert-rule-store';
import { createBotChatStore } from '../../db/alerts/bot-chat-store';
import { createBotSendStore } from '../../db/alerts/bot-send-store';
import { ensureBotSender } from '../../workflows/alerts/bot-sender-starter';
import { defineActivityArea, type WorkerContext } from '../activity-area';
import { createBotSender } from './bot-sender';

/**
 * The alerts area's activities: the bot's send-queue drain. Rule evaluation itself runs inside the live projector's
 * refresh (mint area), over the states it already holds: see alert-evaluator.ts.
 */
export const alertsActivities = defineActivityArea({
  name: 'alerts',
  deps: ({ cfg, db, now }: Pick<WorkerContext, 'cfg' | 'db' | 'now'>) => ({
    ruleStore: createAlertRuleStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    sendStore: createBotSendStore(db),
    chatStore: createBotChatStore(db),
    bot: cfg.messaging.telegramBotToken ? createTelegramBot({ token: cfg.messaging.telegramBotToken, apiRoot: cfg.messaging.telegramApiRoot }) : null,
    pacing: { perChatIntervalMs: cfg.alerts.bot.perChatIntervalMs, perSecond: cfg.alerts.bot.perSecond },
    auditGradProb: cfg.alerts.auditGradProb,
    now,
  }),
  activities: (d) => createBotSender(d),
  start: async (d, { cfg, temporal }) => {
    // The audited house rule follows the configuration: a new threshold retires the old rule and starts a new one.
    await d.ruleStore.ensureHouseRule('grad_prob', d.auditGradProb, d.now());
    await ensureBotSender(temporal, cfg.temporal.taskQueue);
    return () => undefined;
  },
});
