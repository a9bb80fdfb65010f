import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import type { WalletLinkRecord, WalletLinkStore } from '../../db/access/wallet-link-store';
import { unsealKey } from '../../domain/access/sealed-key';
import type { HolderAccess, HolderThresholds } from '../../domain/access/tiers';
import { walletSignupMessage } from '../../domain/access/wallet-proof';
import type { SignResult, WalletSignupInput } from '../../workflows/access/wallet-signup-contract';
import type { WalletSignupStarter } from '../../workflows/access/wallet-signup-starter';
import { notFound, unavailable } from '../http/http-error';
import { bodyError, walletAddressError } from './body-error';
import { iso } from '../http/iso';

export type WalletSignupSettings = {
  ttlS: number;
  /** 300 in production: how long the poll shows a minted key. */
  keyVisibleS: number;
  thresholds: HolderThresholds;
  /** Undefined when not configured (production without KEY_REVEAL_SECRET): signup then answers 503. */
  keyRevealSecret: string | undefined;
  publicBaseUrl: string | undefined;
};

/** The tier names the published CLI (`goracle signup --wallet`) sends and reads, beside ours (openapi WalletSignupInitRequest). */
const CLIENT_TIER_ALIASES: Record<string, HolderAccess> = { builder: 'api', tg_paid: 'signals' };
const CLIENT_TIER_NAMES: Record<HolderAccess, 'builder' | 'tg_paid'> = { api: 'builder', signals: 'tg_paid' };
/**
 * A link whose balance fell short is `ineligible` in the store and the workflow; the API shows the published CLI's
 * name, which it waits for (the spec names no status but `pending` and `fulfilled`, so theirs is adopted).
 */
const shownStatus = (s: WalletLinkRecord['status']) => (s === 'ineligible' ? ('insufficient_balance' as const) : s);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Holder-token signup: init starts one workflow per link (`wallet-link:<link_id>`), sign hands the signature
 * to it as an update, and the poll reads the link from Postgres (the key, unsealed, only in its window).
 * Without a Temporal connection (some tools run the API alone) init and sign answer 503.
 */
export function walletSignupRoutes(d: {
  signups: WalletSignupStarter | undefined;
  store: WalletLinkStore;
  settings: WalletSignupSettings;
  now: () => Date;
}): Router {
  const r = Router();
  const signupStarter = () => {
    if (!d.signups) throw unavailable('holder signup needs the workflow service, which this API process is not connected to', 30);
    if (!d.settings.keyRevealSecret) throw unavailable('holder signup is not configured on this deployment (KEY_REVEAL_SECRET)', 300);
    return d.signups;
  };

  const view = (l: WalletLinkRecord, req: Request, withKey: boolean) => {
    const visible = withKey && l.status === 'fulfilled' && l.keyCiphertext !== null && l.keyVisibleUntil !== null && d.now() < l.keyVisibleUntil;
    const base = d.settings.publicBaseUrl ?? `${req.protocol}://${req.get('host')}`;
    const apiKey = visible && d.settings.keyRevealSecret ? unsealKey(l.keyCiphertext!, d.settings.keyRevealSecret) : null;
    return {
      link_id: l.linkId,
      status: shownStatus(l.status),
      wallet: l.wallet,
      tier: l.access,
      message: l.message,
      browser_url: `${base}/?wallet_link=${encodeURIComponent(l.linkId)}`,
      created_at: l.createdAt.toISOString(),
      expires_at: l.expiresAt.toISOString(),
      balance: l.balance,
      threshold: l.threshold,
      api_key: apiKey,
      key_prefix: l.keyPrefix,
      fulfilled_at: iso(l.fulfilledAt),
      api_key_visible_until: iso(l.keyVisibleUntil),
      // The published CLI's names for the same things (README: accommodations for existing clients).
      key: apiKey,
      resolved_tier: CLIENT_TIER_NAMES[l.access],
      balance_ui: l.balance,
      threshold_ui: l.threshold,
      key_expired_for_poll: l.status === 'fulfilled' && (l.keyVisibleUntil === null || d.now() >= l.keyVisibleUntil),
    };
  };

  /** The workflow writes the link's row as its first step; init answers from that row. */
  async function awaitRow(linkId: string, timeoutMs: number): Promise<WalletLinkRecord> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
      const l = await d.store.get(linkId);
      if (l) return l;
    }
    throw unavailable(
      `the signup ${linkId} was started but is not recorded yet (the workflow service has no free worker); poll GET /api/signup/wallet/${linkId}`,
      2,
    );
  }

  r.post('/api/signup/wallet/init', async (req, res) => {
    const { wallet, tier: asked } = req.body as { wallet: string; tier: string };
    const tier: HolderAccess = CLIENT_TIER_ALIASES[asked] ?? (asked as HolderAccess);
    // Bad input is answered as such even while the workflow service is away.
    const badWallet = walletAddressError(['body', 'wallet'], wallet);
    if (badWallet) throw badWallet;
    const signups = signupStarter();
    const linkId = randomBytes(16).toString('base64url');
    const now = d.now();
    const input: WalletSignupInput = {
      linkId,
      wallet,
      access: tier,
      message: walletSignupMessage(linkId, tier, wallet),
      threshold: d.settings.thresholds[tier],
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + d.settings.ttlS * 1000).toISOString(),
      keyVisibleS: d.settings.keyVisibleS,
    };
    await signups.start(input);
    // A worker records the row within milliseconds; when none runs, the client hears so within seconds instead of hanging.
    res.json(view(await awaitRow(linkId, 3000), req, false));
  });

  r.post('/api/signup/wallet/sign', async (req, res) => {
    const signups = signupStarter();
    const { link_id: linkId, signature } = req.body as { link_id: string; signature: string };
    const before = await d.store.get(linkId);
    if (!before) throw notFound(`no wallet signup ${linkId}`);
    let result: SignResult | undefined;
    try {
      result = await signups.sign(linkId, signature);
    } catch (e) {
      // The workflow has finished (expired, or settled and past its key window): the row says how it ended.
      const now = await d.store.get(linkId);
      if (!now || now.status === 'pending') throw e;
    }
    if (result?.outcome === 'invalid_signature')
      throw bodyError(['body', 'signature'], `not an ed25519 signature by ${before.wallet} of this link's message`, 'value_error');
    if (result?.outcome === 'balance_unavailable') throw unavailable('the holder-token balance could not be read; sign again in a moment', 10);
    // The plaintext key is never in this answer: the poll shows it.
    res.json(view((await d.store.get(linkId))!, req, false));
  });

  r.get('/api/signup/wallet/:link_id', async (req, res) => {
    const l = await d.store.get(req.params.link_id as string);
    if (!l) throw notFound(`no wallet signup ${req.params.link_id}`);
    res.set('Cache-Control', 'no-store').json(view(l, req, true));
  });
  return r;
}
