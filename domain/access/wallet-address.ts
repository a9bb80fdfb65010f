import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';

/** Why a string is not a wallet address, or null when it is one. */
export type WalletAddressProblem = 'not_base58' | 'wrong_length' | 'off_curve' | null;

const PUBLIC_KEY_BYTES = 32;

/**
 * A wallet address is the base58 form of a 32-byte ed25519 public key on the curve. The pattern in openapi.yaml
 * (32 to 44 base58 characters) lets through strings that decode to 31 or 33 bytes; and an off-curve 32 bytes (a
 * program-derived address) has no private key, so it can never sign the message that proves the wallet.
 */
export function walletAddressProblem(address: string): WalletAddressProblem {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(address);
  } catch {
    return 'not_base58';
  }
  if (bytes.length !== PUBLIC_KEY_BYTES) return 'wrong_length';
  return PublicKey.isOnCurve(bytes) ? null : 'off_curve';
}

export const WALLET_ADDRESS_PROBLEM_MESSAGE: Readonly<Record<Exclude<WalletAddressProblem, null>, string>> = {
  not_base58: 'not a base58 string',
  wrong_length: 'does not decode to a 32-byte ed25519 public key',
  off_curve: 'is not an ed25519 public key (off the curve: a program-derived address cannot sign)',
};
