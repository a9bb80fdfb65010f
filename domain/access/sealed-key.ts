import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A minted key waiting to be shown by the signup poll is stored sealed (AES-256-GCM under a server secret),
 * never in plaintext, and wiped after its 5-minute window. Layout: 12-byte nonce ‖ 16-byte tag ‖ ciphertext.
 */
/** Development and tests only: production refuses to start without its own KEY_REVEAL_SECRET. */
export const DEV_KEY_REVEAL_SECRET = 'development-only-key-reveal-secret';

const keyFrom = (secret: string) => createHash('sha256').update(`key-reveal:${secret}`).digest();

export function sealKey(plaintext: string, secret: string): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyFrom(secret), nonce);
  const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return Buffer.concat([nonce, c.getAuthTag(), body]);
}

/** The plaintext, or null when the box was not sealed under this secret (or was tampered with). */
export function unsealKey(sealed: Buffer, secret: string): string | null {
  if (sealed.length < 29) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', keyFrom(secret), sealed.subarray(0, 12));
    d.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
