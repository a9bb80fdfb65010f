import { Router } from 'express';
import type { ApiKeyStore } from '../../db/access/api-key-store';
import { holderAccessFor, dailyQuota, effectiveTier } from '../../domain/access/tiers';
import { betaWindowOpen } from '../../domain/access/beta-window';
import { invalidKey } from './access-errors';
import { callerAccess, type AccessSettings } from './key-auth';
import { quotaRemaining } from './rate-limit-headers';
import { iso } from '../http/iso';

/** GET /api/me: the calling key as the service sees it now (read fresh, not from the lookup cache). */
export function meRoutes(d: { apiKeyStore: ApiKeyStore; settings: AccessSettings; now: () => Date }): Router {
  const r = Router();
  r.get('/api/me', async (_req, res) => {
    const access = callerAccess(res);
    // With auth switched off there is no calling key to describe.
    if (access?.kind !== 'key') throw invalidKey('no API key was checked for this call');
    const key = await d.apiKeyStore.getById(access.key.id);
    if (!key || key.revokedAt) throw invalidKey('the API key was revoked');
    const now = d.now();
    const th = d.settings.holderThresholds;
    const quota = { ...access.quota, limit: dailyQuota(effectiveTier(key, now, th), key.customDailyQuota) };
    res.set('Cache-Control', 'no-store').json({
      key_prefix: key.prefix,
      tier: effectiveTier(key, now, th),
      plan: key.plan,
      plan_expires_at: iso(key.planExpiresAt),
      quota: { limit: quota.limit, used: quota.used, remaining: quotaRemaining(quota), reset_at: quota.resetAt.toISOString() },
      linked_wallet: key.wallet,
      holder_token_balance: key.holderBalance,
      holder_access: holderAccessFor(key.holderBalance, th),
      beta_window_open: betaWindowOpen(now, d.settings.keyRequiredAfter),
      beta_window_ends_at: d.settings.keyRequiredAfter.toISOString(),
      created_at: key.createdAt.toISOString(),
      // The published CLI's names and units for the same things (README: accommodations for existing clients).
      prefix: key.prefix,
      expires_at: key.planExpiresAt ? Math.floor(key.planExpiresAt.getTime() / 1000) : null,
      calls_today: quota.used,
      daily_limit: quota.limit,
    });
  });
  return r;
}
