import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A subscription's signing secret at rest: AES-256-GCM under WEBHOOK_SECRET_KEY (32 bytes), bound to its owner's key
 * id as additional data so a ciphertext copied to another key's row does not open. It must be usable for signing, so
 * it is encrypted, not hashed. Layout (base64): `v1:` 12-byte nonce ‖ 16-byte tag ‖ ciphertext.
 */
/** Development and tests only: production has no default (webhooks then answer 503 and deliveries wait). */
export const DEV_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

export function parseSecretKey(text: string): Buffer | null {
  const b = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return b.length === 32 ? b : null;
}

export function sealSecret(secret: string, key: Buffer, ownerKeyId: number): string {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  c.setAAD(Buffer.from(`webhook:${ownerKeyId}`));
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([nonce, c.getAuthTag(), body]).toString('base64')}`;
}

/** The secret, or null when the box was not sealed under this key for this owner (or was altered). */
export function openSecret(sealed: string, key: Buffer, ownerKeyId: number): string | null {
  if (!sealed.startsWith('v1:')) return null;
  const b = Buffer.from(sealed.slice(3), 'base64');
  if (b.length < 29) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
    d.setAAD(Buffer.from(`webhook:${ownerKeyId}`));
    d.setAuthTag(b.subarray(12, 28));
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
