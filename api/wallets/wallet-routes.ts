import { Router } from 'express';
import type { WalletReadStore } from '../../db/wallets/wallet-read-store';
import type { SmartCriteria, SmartScoreVersion } from '../../domain/wallets/smart-score';
import { parseWalletKey, parseWalletPrefix, type WalletKey, type WalletKeyError } from '../../domain/wallets/wallet-address';
import { walletLookupView, walletVerificationMatchesView, walletVerificationView } from '../../domain/wallets/wallet-views';
import { HttpError, notFound } from '../http/http-error';

export type WalletRouteDeps = {
  walletReadStore: WalletReadStore;
  /** The published smart score version (cached per process). */
  scoreVersion: () => Promise<SmartScoreVersion>;
  smartCriteria: SmartCriteria;
  now: () => Date;
};

const PROBLEM: Record<WalletKeyError['reason'], string> = {
  not_base58: 'must be base58 (no 0, O, I or l)',
  bad_length: 'must be a full address (32–44 characters) or its first 12 characters',
  not_32_bytes: 'must decode to a 32-byte public key',
};

/** A key the pattern admits but that names no wallet (a 32–44 character string that is not 32 bytes): the spec's 422. */
function keyOr422(parsed: WalletKey | WalletKeyError, name: string, input: string): WalletKey {
  if (parsed.kind !== 'invalid') return parsed;
  throw new HttpError(422, { detail: [{ loc: ['path', name], msg: `the wallet ${PROBLEM[parsed.reason]}`, type: 'value_error', input }] });
}

/**
 * The lifetime record by full address or 12-character prefix (keyed), by prefix (public), and the public
 * verification by either. A prefix answers every wallet that has it; a full address only that wallet.
 */
export function walletRoutes(d: WalletRouteDeps): Router {
  const r = Router();

  const lookup = async (key: WalletKey) => {
    const smart = await d.scoreVersion();
    return walletLookupView(key, await d.walletReadStore.byKey(key, smart), { smart, criteria: d.smartCriteria });
  };

  r.get('/api/v1/wallet/:address', async (req, res) => {
    const address = String(req.params.address);
    res.set('Cache-Control', 'no-store').json(await lookup(keyOr422(parseWalletKey(address), 'address', address)));
  });

  // Public: by prefix only, and the answer never carries a full address (walletLookupView reveals none for a prefix).
  r.get('/api/wallet/:short', async (req, res) => {
    const short = String(req.params.short);
    res.set('Cache-Control', 'public, max-age=30').json(await lookup(keyOr422(parseWalletPrefix(short), 'short', short)));
  });

  // Observed stats, never a score, rank or comparison. A full address answers exactly that wallet (never a prefix
  // twin's); a 12-character prefix, as the leaderboards show wallets, answers every wallet with it, by prefix only.
  r.get('/api/verify/:wallet', async (req, res) => {
    const wallet = String(req.params.wallet);
    const key = keyOr422(parseWalletKey(wallet), 'wallet', wallet);
    const matches = await d.walletReadStore.byKey(key, await d.scoreVersion());
    if (matches.length === 0) throw notFound(`wallet ${key.prefix}… is not in the wallet index: it has bought no resolved launch`);
    const body =
      key.kind === 'address'
        ? walletVerificationView(matches[0]!.record, d.now())
        : walletVerificationMatchesView(
            key.prefix,
            matches.map((m) => m.record),
            d.now(),
          );
    res.set('Cache-Control', 'public, max-age=30').json(body);
  });
  return r;
}
