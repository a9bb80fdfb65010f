import { createHash } from 'node:crypto';

/**
 * SHA-256 digests as the ledger writes them: 32 raw bytes inside the tree, 64 lowercase hex digits everywhere
 * else (payloads, proofs, commit records, memos). Parsing accepts only that exact hex form, so one digest has
 * one spelling and a string comparison of two hex digests is a digest comparison.
 *
 * Hashing is Node's native SHA-256 (pure computation, no I/O), not @noble/hashes: noble 2 is ES-module only,
 * and where it is transpiled to CommonJS (tsx, which runs `npm start`, the benches and scripts; jest) each of
 * its internal calls goes through an export getter. Measured on this machine, 100,000 hashes of 64 bytes:
 * noble 1.9–3.8 s under tsx and 1.0 s under jest, against 0.15–0.4 s native (noble ran 0.2–0.3 s under plain
 * node). A 200,000-leaf hour hashes about 400,000 times. Every ledger hash goes through this file.
 */
export const DIGEST_BYTES = 32;
export const DIGEST_HEX_PATTERN = /^[0-9a-f]{64}$/;

/** A plain Uint8Array (not a Buffer, whose `slice` would share memory). */
export function sha256(data: Uint8Array | string): Uint8Array {
  const b = typeof data === 'string' ? createHash('sha256').update(data, 'utf8').digest() : createHash('sha256').update(data).digest();
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** SHA-256 of the text's UTF-8 bytes. */
export const sha256Utf8 = (text: string): Uint8Array => sha256(text);

export function digestToHex(digest: Uint8Array): string {
  if (digest.length !== DIGEST_BYTES) throw new RangeError(`a digest is ${DIGEST_BYTES} bytes, not ${digest.length}`);
  return Buffer.from(digest.buffer, digest.byteOffset, digest.length).toString('hex');
}

export function isDigestHex(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_HEX_PATTERN.test(value);
}

export function digestFromHex(hex: string): Uint8Array {
  if (!isDigestHex(hex)) throw new RangeError('a digest is 64 lowercase hex digits');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
