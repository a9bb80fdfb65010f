import { z } from 'zod';
import type { UnionToIntersection } from './area-types';
import { accessSettings } from './settings/access-settings';
import { accuracySettings } from './settings/accuracy-settings';
import { alertsSettings } from './settings/alerts-settings';
import { apiSettings } from './settings/api-settings';
import { billingSettings } from './settings/billing-settings';
import { historySettings } from './settings/history-settings';
import { firehoseSettings } from './settings/firehose-settings';
import { ingestSettings } from './settings/ingest-settings';
import { ledgerSettings } from './settings/ledger-settings';
import { liveSettings } from './settings/live-settings';
import { webhooksSettings } from './settings/webhooks-settings';
import { marketSettings } from './settings/market-settings';
import { messagingSettings } from './settings/messaging-settings';
import { metadataSettings } from './settings/metadata-settings';
import { mintSettings } from './settings/mint-settings';
import { opsSettings } from './settings/ops-settings';
import { paperSettings } from './settings/paper-settings';
import { perpsSettings } from './settings/perps-settings';
import { platformSettings } from './settings/platform-settings';
import { signalsSettings } from './settings/signals-settings';
import { verdictSettings } from './settings/verdict-settings';
import { walletsSettings } from './settings/wallets-settings';
import { workerSettings } from './settings/worker-settings';

/** Every area's settings (platform/settings/<area>-settings.ts); a new area adds its own here. */
const SETTINGS = [
  platformSettings,
  apiSettings,
  opsSettings,
  marketSettings,
  mintSettings,
  liveSettings,
  accuracySettings,
  ingestSettings,
  accessSettings,
  billingSettings,
  messagingSettings,
  walletsSettings,
  signalsSettings,
  alertsSettings,
  perpsSettings,
  workerSettings,
  ledgerSettings,
  verdictSettings,
  historySettings,
  paperSettings,
  webhooksSettings,
  firehoseSettings,
  metadataSettings,
] as const;

type Sections = UnionToIntersection<ReturnType<(typeof SETTINGS)[number]['section']>>;

/** The one typed configuration of every process, inferred from the areas' settings. */
export type Config = { [K in keyof Sections]: Sections[K] };

const schema = z.object(Object.assign({}, ...SETTINGS.map((s) => s.env)) as z.ZodRawShape);

// A variable read by two areas is declared once and shared; two declarations could disagree on its default.
for (const [i, s] of SETTINGS.entries()) {
  for (const [name, type] of Object.entries(s.env)) {
    const other = SETTINGS.slice(0, i).find((o) => name in o.env);
    if (other && (other.env as z.ZodRawShape)[name] !== type) throw new Error(`setting ${name} is declared twice; share the first declaration`);
  }
}

/**
 * Parsed from the environment once, at start-up, so a bad value stops the process before it serves anything.
 * An empty value means unset (`FOO=` in an env file, `FOO: ${FOO:-}` in compose), so optional settings stay optional.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return Object.assign({}, ...SETTINGS.map((s) => s.section(parsed.data as never))) as Config;
}

/** Where this deployment is reachable from outside (links in payment pages and emails). */
export function publicBaseUrl(cfg: Config): string {
  return (cfg.api.publicBaseUrl ?? `http://${cfg.api.host}:${cfg.api.port}`).replace(/\/+$/, '');
}

/** The probe link a message carries: the public base address when configured, else the path alone. */
export const probeUrlFor = (cfg: Config) => (mint: string) => `${(cfg.api.publicBaseUrl ?? '').replace(/\/+$/, '')}/api/v1/probe/${mint}`;

/** For processes that cannot run without a database or Temporal: fail fast with a clear message. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`${name} is required for this process`);
  return value;
}
