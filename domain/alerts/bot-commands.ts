import { isAlertKind, type AlertKind } from './alert-kinds';

export type BotCommand =
  | { cmd: 'start' | 'help' | 'alerts' | 'watchlist' | 'tier' }
  | { cmd: 'upgrade'; tier: 'builder' | 'pro'; plan: 'monthly' | 'yearly' }
  | { cmd: 'link'; key: string }
  | { cmd: 'linkwallet'; wallet: string }
  | { cmd: 'sign'; signature: string }
  | { cmd: 'alert'; kind: AlertKind; param: string }
  | { cmd: 'remove'; ruleId: number }
  | { cmd: 'watch' | 'unwatch' | 'probe'; mint: string }
  | { cmd: 'signals'; tiers: ('ACT' | 'WATCH' | 'SCOUT')[] }
  | { cmd: 'bad'; reply: string };

const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** A base58 ed25519 signature (64 bytes: 86 to 88 characters); the signup workflow checks it. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{80,90}$/;
const USAGE: Record<string, string> = {
  link: 'usage: /link <your API key> (in this private chat; the message is deleted once read), or /link wallet <holder wallet address>',
  sign: 'usage: /sign <signature> (base58, of the message /link wallet gave you)',
  upgrade: 'usage: /upgrade [builder|pro] [monthly|yearly] (default: pro monthly)',
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
  '/link <API key>: link this chat to your key · /link wallet <address>, then /sign <signature>: link a holder wallet',
  '/alert <kind> <parameter>: add an alert rule (' + USAGE.alert!.split('kinds: ')[1] + ')',
  '/alerts: your rules · /remove <id>: remove one',
  '/watch <mint> · /unwatch <mint> · /watchlist',
  '/probe <mint>: the mint now',
  '/signals ACT WATCH SCOUT | off: composite signal tiers to receive',
  "/tier: your plan, rules and quota · /upgrade [builder|pro] [monthly|yearly]: the plan's Solana Pay link",
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
      return { cmd };
    case 'quota':
      return { cmd: 'tier' };
    case 'upgrade': {
      const words = args.map((a) => a.toLowerCase());
      const tier = words.find((w): w is 'builder' | 'pro' => w === 'builder' || w === 'pro') ?? 'pro';
      const plan = words.find((w): w is 'monthly' | 'yearly' => w === 'monthly' || w === 'yearly') ?? 'monthly';
      return words.length <= 2 && words.every((w) => w === tier || w === plan) ? { cmd: 'upgrade', tier, plan } : { cmd: 'bad', reply: USAGE.upgrade! };
    }
    case 'link':
      if (args.length === 2 && args[0]!.toLowerCase() === 'wallet') return { cmd: 'linkwallet', wallet: args[1]! };
      return args.length === 1 ? { cmd: 'link', key: args[0]! } : { cmd: 'bad', reply: USAGE.link! };
    case 'sign':
      return args.length === 1 && SIGNATURE.test(args[0]!) ? { cmd: 'sign', signature: args[0]! } : { cmd: 'bad', reply: USAGE.sign! };
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
