/**
 * The leaf formats a proof may carry, as docs/ledger-format.md lists them: each version's fields in canonical
 * (sorted) order. Written here from that page rather than imported from domain/ledger (which hashes with
 * node:crypto), so the browser checks what the document promises; a unit test holds the two lists equal.
 */
export const LEAF_FORMATS: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {
  grad_prob: {
    1: [
      'age_bucket',
      'as_of',
      'calibration_band_hi',
      'calibration_band_lo',
      'calibration_n',
      'calibration_rate',
      'features_sha256',
      'grad_prob',
      'id',
      'leaf_version',
      'mint',
      'model_version',
      'predicted_at',
      'price_sol',
      'track',
    ],
  },
  composite: {
    1: [
      'age_s_at_cross',
      'composite_score',
      'id',
      'leaf_version',
      'max_mult_at_cross',
      'mc_at_cross_usd',
      'mint',
      'predicted_at',
      'smart_money_in',
      'threshold_at_cross',
      'tier',
      'track',
    ],
  },
  verdict: {
    1: [
      'branch',
      'evaluation_sha256',
      'id',
      'leaf_version',
      'predicted_at',
      'preregistration_id',
      'preregistration_sha256',
      'track',
      'verdict',
      'window_end',
      'window_start',
    ],
  },
  perps: {
    1: [
      'detected_at',
      'entry_px',
      'entry_rule_version',
      'exchange',
      'id',
      'kind',
      'leaf_version',
      'leverage',
      'market',
      'position_value_usd',
      'price_at_detection',
      'rule_version',
      'side',
      'size',
      'smart_score',
      'track',
      'wallet',
      'wallet_roi_30d',
      'whale',
    ],
  },
  shadow: {
    1: ['age_bucket', 'as_of', 'grad_prob', 'id', 'leaf_version', 'mint', 'model_name', 'model_version', 'predicted_at', 'track'],
  },
  promotion: {
    1: ['challenger', 'champion', 'decision', 'evidence_sha256', 'id', 'leaf_version', 'n', 'predicted_at', 'rule_id', 'rule_sha256', 'track', 'window_end'],
  },
};

/** The field holding a leaf's time (the hour it is committed in): `predicted_at`, except perps v1's `detected_at`. */
export function leafTimeField(track: string, version: number): string {
  return track === 'perps' && version === 1 ? 'detected_at' : 'predicted_at';
}

export function leafFields(track: string, version: number): readonly string[] | null {
  const versions = Object.hasOwn(LEAF_FORMATS, track) ? LEAF_FORMATS[track] : undefined;
  return versions && Object.hasOwn(versions, version) ? (versions[version] ?? null) : null;
}
