import type { ApiKeyRecord } from '../../db/access/api-key-store';
import { FIREHOSE_CLOSE } from '../../domain/firehose/firehose-protocol';
import { effectiveTier, type HolderThresholds } from '../../domain/access/tiers';
import type { KeyCache } from '../access/key-cache';
import { readPresentedKey } from '../access/presented-key';

export type FirehoseAccessDeps = {
  authEnabled: boolean;
  keys: KeyCache;
  /** The key as it is now (not cached): the periodic re-check must see a revocation or a lapsed plan. */
  getKeyById: (id: number) => Promise<ApiKeyRecord | undefined>;
  holderThresholds: HolderThresholds;
  now: () => Date;
};

export type Refusal = { code: number; reason: string };

/**
 * The REST API's key rules for the firehose upgrade: the key from `Authorization: Bearer`, `X-API-Key` or the
 * `api_key` query parameter (browsers cannot set headers on a websocket), read by the same code as every keyed
 * operation, so two different keys are `ambiguous_key`. Enterprise only, beta window or not.
 */
export async function checkFirehoseKey(
  d: FirehoseAccessDeps,
  rawHeaders: readonly string[],
  queryKeys: readonly string[],
): Promise<{ ok: true; key: ApiKeyRecord | undefined } | ({ ok: false } & Refusal)> {
  if (!d.authEnabled) return { ok: true, key: undefined };
  const presented = readPresentedKey([...rawHeaders, ...queryKeys.flatMap((k) => ['x-api-key', k])]);
  const unauthorized = (reason: string) => ({ ok: false as const, code: FIREHOSE_CLOSE.unauthorized, reason });
  if (presented.kind === 'none') return unauthorized('missing_key');
  if (presented.kind === 'bad') return unauthorized('invalid_key');
  if (presented.kind === 'ambiguous') return unauthorized('ambiguous_key');
  const key = await d.keys.get(presented.key);
  if (!key) return unauthorized('invalid_key');
  if (key.awaitingPaymentOf) return unauthorized('key_not_active');
  if (effectiveTier(key, d.now(), d.holderThresholds) !== 'enterprise') return { ok: false, code: FIREHOSE_CLOSE.forbidden, reason: 'insufficient_tier' };
  return { ok: true, key };
}

/** A connected key looked up again: revoked → 4401 `key_revoked`; no longer Enterprise → 4403 `plan_lapsed`. */
export async function recheckFirehoseKey(d: FirehoseAccessDeps, keyId: number): Promise<Refusal | undefined> {
  const key = await d.getKeyById(keyId);
  if (!key || key.revokedAt) return { code: FIREHOSE_CLOSE.unauthorized, reason: 'key_revoked' };
  if (effectiveTier(key, d.now(), d.holderThresholds) !== 'enterprise') return { code: FIREHOSE_CLOSE.forbidden, reason: 'plan_lapsed' };
  return undefined;
}
