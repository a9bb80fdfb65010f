import type { MintFacts } from '../../domain/alerts/alert-evaluation';

/**
 * A non-mayhem mint on the curve about which nothing has happened yet (no score, no smart money, no flags), with
 * `o` on top: what the alert tests start from, so each states only the facts its case is about.
 */
export const quietMintFacts = (o: Partial<MintFacts> = {}): MintFacts => ({
  mint: 'Mint111111111111111111111111111111111111111',
  mayhem: false,
  gradProb: null,
  ageBucket: null,
  calibration: null,
  vSolAdded60sSol: 0,
  runnerCreator: false,
  rate5x: null,
  nLaunches: 0,
  smartMoneyIn: 0,
  runner5x: null,
  runner10x: null,
  buyers: [],
  priceSol: 3e-8,
  currentMult: 1,
  marketCapSol: 30,
  marketCapUsd: null,
  rugFlags: [],
  graduated: false,
  ...o,
});
