import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_STORAGE_REGION, UPLOAD } from '../common/constants.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** Every setting the studio reads from the environment. Each default is the embedded mode. */
const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RUN_WORKERS: bool.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  SEED_DEMO: bool.default(true),
  TRUST_PROXY: bool.default(false),
  SECURE_COOKIES: bool.optional(),
  MEDIA_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(2048).default(UPLOAD.defaultMaxMb),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default(DEFAULT_STORAGE_REGION),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool.default(false),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('GenPro Studio <no-reply@genpro.local>'),
  FFMPEG_PATH: optionalString,
  FFPROBE_PATH: optionalString,
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(20),
});

export type Config = z.output<typeof configSchema> & {
  publicUrl: string;
  dataDir: string;
  embedded: { database: boolean; storage: boolean; mail: boolean };
};

export class ConfigError extends Error {}

/** Reads the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined) relevant[key] = value;
  }
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `${name}: ${issue.message}${relevant[name] !== undefined ? ` (got "${redact(name, relevant[name])}")` : ''}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    embedded: { database: !c.DATABASE_URL, storage: !c.S3_BUCKET, mail: !c.SMTP_URL },
  };
}

function redact(name: string, value: string): string {
  return /SECRET|PASSWORD|KEY|DATABASE_URL|SMTP_URL/.test(name) ? '***' : value;
}
