import bs58 from 'bs58';
import nacl from 'tweetnacl';

/** An ed25519 wallet that signs messages the way wallet apps do (detached signature, base58). */
export function testWallet() {
  const kp = nacl.sign.keyPair();
  return {
    address: bs58.encode(kp.publicKey),
    sign: (message: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), kp.secretKey)),
  };
}
