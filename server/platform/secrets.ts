import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const stored = new Map<string, Buffer>();

/**
 * A server secret: the configured value when set, otherwise one generated on first use and kept at
 * `<dataDir>/secrets/<name>` (shared by every process on that data directory). `label` names it in errors.
 */
export function configuredOrStoredSecret(
  configured: string | undefined,
  dataDir: string,
  name: string,
  label: string,
): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, 'secrets', name);
  const cached = stored.get(file);
  if (cached) return cached;
  let secret: Buffer;
  try {
    secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx' fails if another process wrote it first; then read theirs.
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch {
      // fall through to the read below
    }
    secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  }
  if (secret.length < 32) throw new Error(`${label} at ${file} is too short`);
  stored.set(file, secret);
  return secret;
}
