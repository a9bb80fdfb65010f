import type { ApiKeyStore } from '../db/access/api-key-store';
import type { AlertRuleStore } from '../db/alerts/alert-rule-store';
import type { BotChatStore } from '../db/alerts/bot-chat-store';
import type { BotSendStore } from '../db/alerts/bot-send-store';
import type { WatchlistStore } from '../db/alerts/watchlist-store';
import type { PredictionStore } from '../db/mint/prediction-store';
import { effectiveTier, holderAccessFor, tierAtLeast, type HolderThresholds } from '../domain/access/tiers';
import { describeRule, parseRuleParam } from '../domain/alerts/alert-kinds';
import { HELP_TEXT, parseCommand } from '../domain/alerts/bot-commands';
import { RULE_LIMITS } from '../domain/alerts/rule-limits';

import type { BotUpdate } from '../clients/telegram/telegram-update';
import type { BotHolderLink } from './bot-holder-link';
import type { BotUpgrade } from './bot-upgrade';

export type BotUpdateDeps = {
  keyStore: Pick<ApiKeyStore, 'findByPlaintext' | 'getById'>;
  ruleStore: Pick<AlertRuleStore, 'add' | 'list' | 'remove'>;
  chatStore: Pick<BotChatStore, 'get' | 'seen' | 'link' | 'setSignalTiers'>;
  sendStore: Pick<BotSendStore, 'enqueue'>;
  watchlistStore: WatchlistStore;
  predictionStore: Pick<PredictionStore, 'byMint'>;
  holderThresholds: HolderThresholds;
  probeUrl: (mint: string) => string;
  upgrade: BotUpgrade;
  holderLink: BotHolderLink;
  /** Deletes the user's message that carried a key (best effort). */
  deleteMessage: (chatId: number, messageId: number) => Promise<void>;
  now: () => Date;
};

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const lim = (n: number) => (Number.isFinite(n) ? String(n) : 'unlimited');

/**
 * Answers one update. The reply is queued in the bot's durable send queue under `reply:<update_id>`, so an update
 * handled twice (a crash before the polling offset was saved) is answered once, in order with the chat's alerts.
 */
export function createBotUpdateHandler(d: BotUpdateDeps) {
  async function owner(chatId: number) {
    const chat = await d.chatStore.get(chatId);
    const key = chat?.ownerKeyId ? await d.keyStore.getById(chat.ownerKeyId) : undefined;
    if (!chat || !key || key.revokedAt) return null;
    return { chat, key, tier: effectiveTier(key, d.now(), d.holderThresholds) };
  }

  async function answer(chatId: number, messageId: number, text: string): Promise<string> {
    const c = parseCommand(text);
    const now = d.now();
    if (c.cmd === 'bad') return c.reply;
    if (c.cmd === 'start' || c.cmd === 'help') return c.cmd === 'start' ? `Welcome. Link this chat with /link <API key> first.\n\n${HELP_TEXT}` : HELP_TEXT;
    if (c.cmd === 'link') {
      // The key is read, never stored or echoed; its message is deleted so it does not linger in the chat.
      await d.deleteMessage(chatId, messageId).catch(() => undefined);
      const key = await d.keyStore.findByPlaintext(c.key);
      if (!key || key.awaitingPaymentOf) return 'That key is not valid (or its payment is not confirmed yet). Nothing was linked.';
      await d.chatStore.link(chatId, key.id, now);
      return `Linked to key ${key.prefix}… (${effectiveTier(key, now, d.holderThresholds)}). I deleted your message with the key. /help lists what you can do.`;
    }
    if (c.cmd === 'linkwallet') return d.holderLink.start(chatId, c.wallet);
    if (c.cmd === 'sign') return d.holderLink.sign(chatId, c.signature);
    if (c.cmd === 'probe') {
      const p = (await d.predictionStore.byMint(c.mint)).at(-1);
      return p
        ? `${c.mint}\ngrad_prob ${pct(p.gradProb)} at ${p.ageBucket} s${p.graduated === null ? '' : ` · graduated: ${p.graduated ? 'yes' : 'no'}`}\nprobe: ${d.probeUrl(c.mint)}`
        : `No score for ${c.mint} (scores exist for tracked non-mayhem mints at 30 s and 60 s).\nprobe: ${d.probeUrl(c.mint)}`;
    }
    const o = await owner(chatId);
    if (!o) return 'Link this chat first: /link <API key>, or /link wallet <address> for a holder wallet.';
    switch (c.cmd) {
      case 'upgrade':
        return d.upgrade({ chatId, key: o.key, tier: c.tier, plan: c.plan });
      case 'alert': {
        const param = parseRuleParam(c.kind, c.param);
        if (!param.ok) return param.reason;
        const r = await d.ruleStore.add(o.key.id, c.kind, param.param, now);
        return r.ok ? `Rule #${r.rule.id} added: ${describeRule(r.rule)}.` : r.reason;
      }
      case 'alerts': {
        const rules = await d.ruleStore.list(o.key.id);
        return rules.length ? rules.map((r) => `#${r.id} ${r.kind}: ${describeRule(r)}`).join('\n') : 'No rules yet: /alert grad_prob 70, for example.';
      }
      case 'remove':
        return (await d.ruleStore.remove(o.key.id, c.ruleId, now)) ? `Rule #${c.ruleId} removed.` : `You have no rule #${c.ruleId} (see /alerts).`;
      case 'watch': {
        const r = await d.watchlistStore.add(o.key.id, c.mint, now);
        return r.ok ? (r.added ? `Watching ${c.mint}.` : `Already watching ${c.mint}.`) : r.reason;
      }
      case 'unwatch':
        return (await d.watchlistStore.remove(o.key.id, c.mint, now)) ? `Stopped watching ${c.mint}.` : `${c.mint} is not on your watchlist.`;
      case 'watchlist': {
        const ms = await d.watchlistStore.list(o.key.id);
        return ms.length ? ms.join('\n') : 'Your watchlist is empty: /watch <mint>.';
      }
      case 'tier': {
        const l = RULE_LIMITS[o.tier];
        const rules = await d.ruleStore.list(o.key.id);
        const watched = await d.watchlistStore.list(o.key.id);
        const holder = holderAccessFor(o.key.holderBalance, d.holderThresholds);
        return [
          `Plan: ${o.tier}${o.key.planExpiresAt ? ` until ${o.key.planExpiresAt.toISOString().slice(0, 10)}` : ''}`,
          `Alert rules: ${rules.length} of ${lim(l.totalRules)}${o.tier === 'free' ? ' (1 basic + 1 premium sample a day)' : ''}`,
          `Watchlist: ${watched.length} of ${lim(l.watchlist)}`,
          `Holder access: ${holder ?? 'none'}`,
          `Signals: ${o.chat.signalTiers.length ? o.chat.signalTiers.join(', ') : 'off'}`,
        ].join('\n');
      }
      case 'signals': {
        const holder = holderAccessFor(o.key.holderBalance, d.holderThresholds);
        if (c.tiers.length && !tierAtLeast(o.tier, 'builder') && holder === null)
          return 'Composite signals need Builder or above, or 500,000 holder tokens on a linked wallet: /upgrade.';
        await d.chatStore.setSignalTiers(chatId, c.tiers);
        return c.tiers.length ? `You will receive ${c.tiers.join(', ')} signals.` : 'Signals off.';
      }
    }
  }

  return {
    async handle(u: BotUpdate): Promise<void> {
      const m = u.message;
      // Private chats only: a key or a rule never belongs to a group.
      if (!m || m.chat.type !== 'private' || typeof m.text !== 'string') return;
      await d.chatStore.seen(m.chat.id, d.now());
      const reply = await answer(m.chat.id, m.message_id, m.text);
      await d.sendStore.enqueue(m.chat.id, `reply:${u.update_id}`, reply, d.now());
    },
  };
}
export type BotUpdateHandler = ReturnType<typeof createBotUpdateHandler>;
