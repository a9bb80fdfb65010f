import { randomBytes } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { walletAddressProblem } from '../../../domain/access/wallet-address';

describe('wallet address', () => {
  it('accepts the base58 form of any ed25519 public key', () => {
    for (let i = 0; i < 50; i++) expect(walletAddressProblem(bs58.encode(nacl.sign.keyPair().publicKey))).toBeNull();
    expect(walletAddressProblem('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).toBeNull();
  });

  it('names what is wrong with anything else', () => {
    expect(walletAddressProblem('0OIl'.repeat(10))).toBe('not_base58');
    expect(walletAddressProblem('')).toBe('wrong_length');
    for (const n of [1, 31, 33, 64]) expect([n, walletAddressProblem(bs58.encode(randomBytes(n)))]).toEqual([n, 'wrong_length']);
    const pda = PublicKey.findProgramAddressSync([Buffer.from('seed')], new PublicKey('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P'))[0];
    expect(walletAddressProblem(pda.toBase58())).toBe('off_curve');
  });
});
