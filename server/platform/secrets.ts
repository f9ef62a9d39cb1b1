import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { serverSecrets } from '../db/schema/index.ts';

/** The server secrets the studio generates when their variable is unset. */
const SECRET_VARIABLES = ['APP_SECRET', 'MEDIA_URL_SECRET'] as const;
export type SecretVariable = (typeof SECRET_VARIABLES)[number];

/** Their names in server_secrets, and the files where earlier versions kept them (`DATA_DIR/secrets/<name>`). */
const STORED_NAMES: Record<SecretVariable, string> = { APP_SECRET: 'app-secret', MEDIA_URL_SECRET: 'media-url-secret' };

/** Secrets kept in server_secrets for the variables left unset (loaded at start into `config.storedSecrets`). */
export type StoredSecrets = Partial<Record<SecretVariable, Buffer>>;

/** A configured value written `base64url:<text>` (a stored secret reused as the variable) names those bytes. */
const BASE64URL_PREFIX = 'base64url:';

function configuredSecretBytes(value: string): Buffer {
  return value.startsWith(BASE64URL_PREFIX)
    ? Buffer.from(value.slice(BASE64URL_PREFIX.length), 'base64url')
    : Buffer.from(value, 'utf8');
}

/**
 * The bytes of a server secret: its variable when set (configured values always win), otherwise the one kept in
 * the database and loaded at start by createContext.
 */
export function serverSecret(
  name: SecretVariable,
  config: Partial<Record<SecretVariable, string>> & { storedSecrets?: StoredSecrets },
): Buffer {
  const configured = config[name];
  if (configured) return configuredSecretBytes(configured);
  const stored = config.storedSecrets?.[name];
  if (!stored) throw new Error(`${name} is unset and no stored secret was loaded (createContext loads it)`);
  return stored;
}

/**
 * Loads the secrets of the variables left unset from server_secrets, creating each once: a secret an earlier
 * version generated into `DATA_DIR/secrets/<name>` is adopted (so existing two-factor enrolments, sealed tokens
 * and post media links keep working), otherwise 48 random bytes. Run under the start-up lock; an insert that
 * still meets another process's row keeps that row, so every process of a database reads the same secret.
 * Never logs a value.
 */
export async function loadStoredSecrets(
  db: Db,
  config: Pick<Config, SecretVariable | 'dataDir'>,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<StoredSecrets> {
  const loaded: StoredSecrets = {};
  for (const variable of SECRET_VARIABLES) {
    if (config[variable]) continue;
    const name = STORED_NAMES[variable];
    const file = path.join(config.dataDir, 'secrets', name);
    const fromFile = await readFile(file, 'utf8').then(
      (text) => text.trim() || null,
      () => null,
    );
    const read = async () => (await db.select().from(serverSecrets).where(eq(serverSecrets.name, name)))[0]?.value;
    let value = await read();
    if (value === undefined) {
      await db
        .insert(serverSecrets)
        .values({ name, value: fromFile ?? randomBytes(48).toString('base64url') })
        .onConflictDoNothing();
      value = await read();
      if (value === undefined) throw new Error(`server_secrets has no ${name} after inserting it`);
      log.info(
        fromFile === value
          ? `${variable} is unset: the secret generated earlier in ${file} is now kept in the database (server_secrets) and used by every process`
          : `${variable} is unset: generated one, kept in the database (server_secrets) and used by every process`,
      );
    } else if (fromFile !== null && fromFile !== value) {
      log.warn(
        `${variable} is unset and ${file} holds another generated secret than the database's (server_secrets); the database's is used, so what this process sealed or signed with the file's before no longer opens (set ${variable} to keep one value)`,
      );
    }
    const bytes = Buffer.from(value, 'base64url');
    if (bytes.length < 32) throw new Error(`the stored ${variable} (server_secrets, ${name}) is too short`);
    loaded[variable] = bytes;
  }
  return loaded;
}
