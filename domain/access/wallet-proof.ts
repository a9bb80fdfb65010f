import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { HolderAccess } from './tiers';

/** The exact message a wallet signs to link itself to an API key (spec section 2; openapi `linkWallet`). */
export const walletLinkMessage = (keyPrefix: string, wallet: string): string => `service :: link wallet to api_key_prefix=${keyPrefix} :: ${wallet}`;

/** The message a wallet signs for a holder signup: it names the link, so a signature fits that link only. */
export const walletSignupMessage = (linkId: string, access: HolderAccess, wallet: string): string =>
  `service :: holder signup for ${access} access link_id=${linkId} :: ${wallet}`;

function decode(b58: string): Uint8Array | null {
  try {
    return bs58.decode(b58);
  } catch {
    return null;
  }
}

/** True when `signatureB58` is the ed25519 signature of exactly `message` by the wallet's key (its base58 address). */
export function verifyWalletSignature(message: string, signatureB58: string, wallet: string): boolean {
  const sig = decode(signatureB58);
  const pub = decode(wallet);
  if (!sig || sig.length !== nacl.sign.signatureLength || !pub || pub.length !== nacl.sign.publicKeyLength) return false;
  return nacl.sign.detached.verify(new TextEncoder().encode(message), sig, pub);
}
