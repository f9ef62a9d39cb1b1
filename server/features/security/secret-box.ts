import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { serverSecret } from '../../platform/secrets.ts';

/**
 * AES-256-GCM for small secrets kept in the database (TOTP secrets, social tokens). The key is derived with
 * HKDF from APP_SECRET, or from the secret generated once into the database (server_secrets) and loaded at
 * start, so every process of a database derives the same keys. Neither the key nor the plaintext is ever
 * logged. Sealed form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export type SecretConfig = Pick<Config, 'APP_SECRET' | 'storedSecrets'>;

function rootSecret(config: SecretConfig): Buffer {
  return serverSecret('APP_SECRET', config);
}

function keyFor(config: SecretConfig, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', rootSecret(config), Buffer.alloc(0), `genpro:${purpose}`, 32));
}

/** HMAC-SHA256 of a value under a key derived for `purpose`: a stable pseudonym that cannot be reversed. */
export function keyedHash(config: SecretConfig, purpose: string, value: string): string {
  return createHmac('sha256', keyFor(config, purpose)).update(value).digest('base64url');
}

export function seal(config: SecretConfig, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(config, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

/** Throws when the value was not sealed with this secret and purpose (or was tampered with). */
export function unseal(config: SecretConfig, purpose: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(config, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
