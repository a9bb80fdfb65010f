/**
 * What the service predicts and what it deliberately does not. The statuses move to `live` as each capability
 * lands; `/api/scope` never claims a prediction that is not being made.
 */
export const LAUNCHPAD = {
  chain: 'solana-mainnet',
  program_id: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P',
  amm_program_id: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA',
  excluded: ['mayhem-mode mints (an automated agent trades them for 24 h; its trades poison volume and holder features)'],
};

export type PredictionScope = { field: string; ages_s: number[]; description: string; status: 'live' | 'suspended' | 'planned' };

export const PREDICTIONS: PredictionScope[] = [
  { field: 'grad_prob', ages_s: [30, 60], description: 'calibrated k-NN probability that the bonding curve completes (graduates) within 24 h', status: 'live' },
  {
    field: 'rug_prob',
    ages_s: [30, 60],
    description: 'k-NN probability of the versioned rug label (rug-v2) within 24 h; null while its predictor is warming',
    status: 'live',
  },
  {
    field: 'runner_prob_{2x,3x,5x,10x,20x}_from_now',
    ages_s: [30, 60],
    description: 'probability that the price reaches N x the price at scoring time within 24 h (never from launch); null while warming',
    status: 'live',
  },
  {
    field: 'post_grad_survival_prob',
    ages_s: [30, 60],
    description:
      'probability a graduate holds 80% of its graduation price for 30 min; logged at every score, published only once its auto-lift gate sees it calibrated forward (state on /api/accuracy)',
    status: 'suspended',
  },
  {
    field: 'composite_signal',
    ages_s: [],
    description:
      'ACT / WATCH / SCOUT hot-launch signal: smart_money_in x max_mult x 1 / (1 + age_s / 600) over the first 120 s of age, first cross of the rolling 24 h P90 (P95 while warming) with market cap above 5,000 USD; tiered by gp_60 (tiers-v1), resolved 24 h after the cross',
    status: 'live',
  },
];

export const IN_SCOPE = [
  'every new non-mayhem mint on the launchpad, scored at 30 s and 60 s of age',
  'outcome resolution at 24 h (graduated, time to graduation, peak multiple, rug label) and DEX price checkpoints at 5, 15 and 30 min after graduation',
  'forward-measured accuracy on resolved predictions only',
  // The audit trail's line is stated per track from what is committed (/api/scope adds it).
];

export const OUT_OF_SCOPE = [
  'mature mint tracking after the 24 h resolution window',
  'lifetime charting',
  'slow-cook rug detection (rugs that unfold after 24 h)',
  "trade execution: the service never trades on anyone's behalf",
  'mayhem-mode mints',
];
