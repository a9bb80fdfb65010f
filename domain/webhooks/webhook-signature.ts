import { createHmac } from 'node:crypto';

/**
 * Signing a delivery (openapi.yaml, `webhooks`). The secret looks like Standard Webhooks' `whsec_<base64>`:
 * - `webhook-signature` is `v1,` + base64 HMAC-SHA256 keyed by the base64-decoded part after `whsec_`, over
 *   `<webhook-id>.<webhook-timestamp>.<raw body>` (Standard Webhooks, so its libraries verify it as they are);
 * - `X-Service-Signature` (spec section 5) is lowercase hex HMAC-SHA256 of the raw body keyed by the secret string
 *   exactly as shown at creation (its UTF-8 bytes), what a receiver that only knows the spec would compute.
 * HMAC is Node's native one (pure computation, no I/O), not @noble/hashes: noble 2 is ES-module only, which jest
 * cannot load here, and is several times slower under tsx (see domain/ledger/ledger-digest.ts).
 */
export const SECRET_PREFIX = 'whsec_';

export const newSecret = (random32: Uint8Array): string => SECRET_PREFIX + Buffer.from(random32).toString('base64');

const standardKey = (secret: string) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'X-Service-Signature': string;
  'X-Service-Event-Id': string;
};

export function signDelivery(secret: string, eventId: string, timestampS: number, body: string): SignedHeaders {
  const standard = createHmac('sha256', standardKey(secret)).update(`${eventId}.${timestampS}.${body}`, 'utf8').digest();
  const service = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest();
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': `v1,${standard.toString('base64')}`,
    'X-Service-Signature': service.toString('hex'),
    'X-Service-Event-Id': eventId,
  };
}
