import fs from 'node:fs';
import path from 'node:path';
import { preregistrationSha256, type Preregistration } from '../../domain/verdict/preregistration';

/**
 * The pre-registration documents ship with the build (`npm run build` copies docs/preregistration/ to
 * dist/docs/preregistration/), so the hash published is of the very bytes in the repository. Resolved from this
 * file: db/verdict/ → repository root in development, dist/db/verdict/ → dist/ in the image.
 */
export const PREREGISTRATION_DIR = path.resolve(__dirname, '..', '..', 'docs', 'preregistration');

export type RegisteredDocument = { path: string; sha256: string; title: string };

/** Reads the registration's document once per process; a missing document stops the caller (never a made-up hash). */
export function readRegisteredDocument(p: Pick<Preregistration, 'id'>, dir = PREREGISTRATION_DIR): RegisteredDocument {
  const file = path.join(dir, `${p.id}.md`);
  const bytes = fs.readFileSync(file);
  const title = /^# (.+)$/m.exec(bytes.toString('utf8'))?.[1] ?? p.id;
  return { path: `docs/preregistration/${p.id}.md`, sha256: preregistrationSha256(bytes), title };
}
