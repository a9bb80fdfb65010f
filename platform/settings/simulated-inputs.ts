import { invalidSetting } from './settings';

/**
 * Production never runs on simulated inputs by accident: a setting that selects one (the simulator feed, the seeded
 * history or smart wallets, the simulated price) stops a NODE_ENV=production process at start-up unless
 * ALLOW_SIMULATED_INPUTS=true says this is a demo on purpose. The responses then say which inputs are simulated.
 */
export function refuseSimulatedInProduction(e: { NODE_ENV: string; ALLOW_SIMULATED_INPUTS: boolean }, name: string, value: string): void {
  if (e.NODE_ENV !== 'production' || e.ALLOW_SIMULATED_INPUTS) return;
  invalidSetting(name, `is ${value}, a simulated input, and NODE_ENV is production; set ALLOW_SIMULATED_INPUTS=true only for a demo deployment`);
}
