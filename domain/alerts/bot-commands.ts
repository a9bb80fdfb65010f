import { isAlertKind, type AlertKind } from './alert-kinds';

export type BotCommand =
  | { cmd: 'start' | 'help' | 'alerts' | 'watchlist' | 'tier' | 'upgrade' }
  | { cmd: 'link'; key: string }
  | { cmd: 'alert'; kind: AlertKind; param: string }
  | { cmd: 'remove'; ruleId: number }
  | { cmd: 'watch' | 'unwatch' | 'probe'; mint: string }
  | { cmd: 'signals'; tiers: ('ACT' | 'WATCH' | 'SCOUT')[] }
  | { cmd: 'bad'; reply: string };

const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const USAGE: Record<string, string> = {
  link: 'usage: /link <your API key> (in this private chat; the message is deleted once read)',
  alert:
    'usage: /alert <kind> <parameter>, kinds: grad_prob <pct>, vsol_burst <SOL>, runner_dev <pct>, smart_in <count>, runner_5x <pct>, runner_10x <pct>, wallet <address>',
  remove: 'usage: /remove <rule id> (see /alerts)',
  watch: 'usage: /watch <mint address>',
  unwatch: 'usage: /unwatch <mint address>',
  probe: 'usage: /probe <mint address>',
  signals: 'usage: /signals ACT WATCH SCOUT (any of them), or /signals off',
};

export const HELP_TEXT = [
  'Launchpad alerts. Commands:',
  '/link <API key>: link this chat to your key',
  '/alert <kind> <parameter>: add an alert rule (' + USAGE.alert!.split('kinds: ')[1] + ')',
  '/alerts: your rules · /remove <id>: remove one',
  '/watch <mint> · /unwatch <mint> · /watchlist',
  '/probe <mint>: the mint now',
  '/signals ACT WATCH SCOUT | off: composite signal tiers to receive',
  '/tier: your plan, rules and quota · /upgrade: the plan payment link',
].join('\n');

/** Reads one message as a command; anything else is answered with a pointer to /help. */
export function parseCommand(text: string): BotCommand {
  const [head = '', ...args] = text.trim().split(/\s+/);
  const cmd = head.replace(/^\//, '').replace(/@\w+$/, '').toLowerCase();
  if (!head.startsWith('/')) return { cmd: 'bad', reply: 'Send a command; /help lists them.' };
  switch (cmd) {
    case 'start':
    case 'help':
    case 'alerts':
    case 'watchlist':
    case 'tier':
    case 'upgrade':
      return { cmd };
    case 'quota':
      return { cmd: 'tier' };
    case 'link':
      return args.length === 1 ? { cmd: 'link', key: args[0]! } : { cmd: 'bad', reply: USAGE.link! };
    case 'alert':
    case 'add': {
      const [kind, ...rest] = args;
      if (!kind || !isAlertKind(kind) || rest.length !== 1) return { cmd: 'bad', reply: USAGE.alert! };
      return { cmd: 'alert', kind, param: rest[0]! };
    }
    case 'remove': {
      const id = args.length === 1 && /^\d{1,15}$/.test(args[0]!) ? Number(args[0]) : NaN;
      return Number.isSafeInteger(id) && id > 0 ? { cmd: 'remove', ruleId: id } : { cmd: 'bad', reply: USAGE.remove! };
    }
    case 'watch':
    case 'unwatch':
    case 'probe':
      return args.length === 1 && MINT.test(args[0]!) ? { cmd, mint: args[0]! } : { cmd: 'bad', reply: USAGE[cmd]! };
    case 'signals': {
      if (args.length === 1 && args[0]!.toLowerCase() === 'off') return { cmd: 'signals', tiers: [] };
      const tiers = [...new Set(args.map((a) => a.toUpperCase()))];
      if (tiers.length === 0 || !tiers.every((t) => t === 'ACT' || t === 'WATCH' || t === 'SCOUT')) return { cmd: 'bad', reply: USAGE.signals! };
      return { cmd: 'signals', tiers: tiers as ('ACT' | 'WATCH' | 'SCOUT')[] };
    }
    default:
      return { cmd: 'bad', reply: `Unknown command /${cmd}; /help lists them.` };
  }
}
