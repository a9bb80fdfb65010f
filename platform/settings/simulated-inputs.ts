import { invalidSetting } from './settings';

type Env = { NODE_ENV: string; DEMO_MODE: boolean };

/**
 * Production never runs on simulated inputs or an open API by accident: a setting that selects a simulated input
 * (the simulator feed with its seeded history and smart wallets, the simulated perps exchange, the simulated price)
 * or turns key checks off stops a NODE_ENV=production process at start-up, unless DEMO_MODE=true says this is a
 * public demo on purpose. /api/scope and /api/health then say which inputs are simulated.
 */
export function refuseInProduction(e: Env, name: string, what: string): void {
  if (e.NODE_ENV !== 'production' || e.DEMO_MODE) return;
  invalidSetting(name, `${what}, and NODE_ENV is production; set DEMO_MODE=true only for a demo deployment`);
}

export const refuseSimulatedInProduction = (e: Env, name: string, value: string) => refuseInProduction(e, name, `is ${value}, a simulated input`);
