import path from 'node:path';
import { z } from 'zod';
import { LOCAL_PREVIEW_PRICES, PRICE_ITEMS, type PriceTable, TEXT_AGENTS } from '../common/api/generation.constants.ts';
import { DEFAULT_STORAGE_REGION, STORAGE_QUOTA, UPLOAD } from '../common/api/media.constants.ts';
import { DEFAULT_TOPUP_PACKAGES, SUBSCRIPTION_PLAN } from '../common/api/payments.constants.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/**
 * APP_SECRET, MEDIA_URL_SECRET: at least 32 characters, used as their UTF-8 bytes; or `base64url:` and the
 * base64url text of at least 32 bytes (how a secret the studio generated earlier is reused, see docs/deploy.md).
 */
const serverSecret = z
  .string()
  .min(32, 'must be at least 32 characters')
  .refine(
    (v) => !v.startsWith('base64url:') || Buffer.from(v.slice('base64url:'.length), 'base64url').length >= 32,
    'after base64url: must come the base64url text of at least 32 bytes',
  );

/** A comma-separated list, trimmed, empty entries dropped. */
const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const topupPackagesSchema = z
  .array(
    z.object({
      id: z.string().trim().min(1).max(40),
      /** Euros, at most 2 decimals. */
      amount: z
        .number()
        .positive()
        .max(100_000)
        .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'at most 2 decimals'),
      credits: z.number().int().positive(),
      displayName: z.string().trim().min(1).max(80),
      description: z.string().trim().max(300).default(''),
      popular: z.boolean().default(false),
    }),
  )
  .min(1)
  .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'package ids must be unique')
  .refine((list) => list.filter((p) => p.popular).length === 1, 'exactly one package must be popular');

export interface TopupPackageConfig {
  id: string;
  amountCents: number;
  credits: number;
  displayName: string;
  description: string;
  popular: boolean;
}

/** TOPUP_PACKAGES: a JSON array of {id, amount (euros), credits, displayName, description?, popular?}. */
function parseTopupPackages(value: string | undefined, ctx: z.RefinementCtx): TopupPackageConfig[] {
  if (value === undefined || value.trim() === '') return DEFAULT_TOPUP_PACKAGES.map((p) => ({ ...p }));
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
    return z.NEVER;
  }
  const parsed = topupPackagesSchema.safeParse(json);
  if (!parsed.success) {
    ctx.addIssue({
      code: 'custom',
      message: parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '),
    });
    return z.NEVER;
  }
  return parsed.data.map(({ amount, ...rest }) => ({ ...rest, amountCents: Math.round(amount * 100) }));
}

/**
 * LOCAL_PREVIEW_PRICES: a JSON object of price items (the keys of PRICES) to whole credits, e.g.
 * `{"videoPro":10,"image":2}`; items left out keep LOCAL_PREVIEW_PRICES' defaults.
 */
function parseLocalPrices(value: string | undefined, ctx: z.RefinementCtx): PriceTable {
  if (value === undefined || value.trim() === '') return { ...LOCAL_PREVIEW_PRICES };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object of price items to credits' });
    return z.NEVER;
  }
  const parsed = z
    .partialRecord(z.enum(PRICE_ITEMS as [string, ...string[]]), z.number().int().min(0).max(1_000_000))
    .safeParse(json);
  if (!parsed.success || json === null || Array.isArray(json)) {
    const known = PRICE_ITEMS.join(', ');
    ctx.addIssue({ code: 'custom', message: `must map price items (${known}) to whole credits ≥ 0` });
    return z.NEVER;
  }
  return { ...LOCAL_PREVIEW_PRICES, ...(parsed.data as Partial<PriceTable>) };
}

/** Every setting the studio reads from the environment. Each default is the embedded mode. */
const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where to listen. Unset: loopback only (127.0.0.1), since the demo accounts' passwords are published. */
  HOST: optionalString,
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
  /**
   * Whether this process applies the database migrations (and the demo seed) at start, under a PostgreSQL
   * advisory lock. `false`: it waits for the schema it needs (`npm run migrate` in the deploy pipeline), up to
   * MIGRATE_WAIT_SECONDS, then stops with a message.
   */
  MIGRATE_ON_START: bool.default(true),
  MIGRATE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /** Connections each process may open to PostgreSQL (its pool; pg-boss and LISTEN use one more each). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(10),
  /** How long a stopping API process drains in-flight requests before it closes what is left (seconds). */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  /**
   * How long a stopping worker lets running tasks finish before it gives them back to the queue (seconds);
   * long enough for a typical render.
   */
  WORKER_SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(7200).default(120),
  /** A separate port serving /metrics (Prometheus), /livez and /readyz; unset: none. Workers need it to be scraped. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Bearer token that opens /metrics on the main port; unset: /metrics answers 404 there. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Demo accounts on an empty database: on by default, off by default in production. */
  SEED_DEMO: bool.optional(),
  /**
   * Whom to believe in X-Forwarded-For: `false` (nobody: no proxy in front), `true` (every hop: only behind a
   * proxy that overwrites the header), a number of proxy hops, or a comma-separated list of proxy addresses/CIDRs.
   * Unset (or empty) is not `false`: it means nobody has said, which production refuses (loadConfig) and
   * /healthz reports once forwarded headers arrive (platform/http/proxy-headers.ts).
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): boolean | number | string[] | undefined => {
      if (v === undefined || v === '') return undefined;
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (list.every((entry) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(entry))) return list;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a list of proxy addresses' });
      return z.NEVER;
    }),
  /**
   * Whether session and connect cookies carry Secure. Unset: yes in production and whenever PUBLIC_URL is https://.
   * `false` in production is the explicit acknowledgement that the site is served over plain HTTP (it lets an
   * http:// PUBLIC_URL start, with a warning).
   */
  SECURE_COOKIES: bool.optional(),
  /** Signs media URLs; generated once into the database (server_secrets) when unset (not in production on PostgreSQL). */
  MEDIA_URL_SECRET: serverSecret.optional(),
  /** Encrypts secrets at rest (TOTP secrets, social tokens); generated once into the database when unset, like MEDIA_URL_SECRET. */
  APP_SECRET: serverSecret.optional(),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(2048).default(UPLOAD.defaultMaxMb),
  /** Most bytes one user may keep in storage (uploads and generated media), in MB. */
  STORAGE_QUOTA_MB: z.coerce.number().int().min(1).default(STORAGE_QUOTA.defaultMb),
  /** Uploads one user may send per minute, across every upload route. */
  RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(UPLOAD.perMinute),
  /** Uploads one client address may send per minute, over every account it signs in with. */
  RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(UPLOAD.perAddressPerMinute),
  /**
   * The most bytes the whole studio may keep in storage (every user's uploads and generated media), in GB;
   * unset, no overall budget. Uploads and generations are refused with a clear message once it is reached.
   */
  STORAGE_BUDGET_GB: z.coerce.number().positive().optional(),
  /**
   * With local storage (no S3_BUCKET): free disk space (MB) under DATA_DIR the studio keeps; uploads and
   * generations are refused when the disk has less.
   */
  STORAGE_DISK_RESERVE_MB: z.coerce.number().int().min(0).default(STORAGE_QUOTA.diskReserveMb),
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
  /** Signed-out chat questions per address per minute (help pages only; signed in it is 20 per user). */
  RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Calls one user may make per minute across the text agents (movie, image and film agent, campaign plan). */
  RATE_LIMIT_TEXT_AGENTS_PER_MINUTE: z.coerce.number().int().min(1).default(TEXT_AGENTS.perUserPerMinute),
  /** Text agent calls one client address may make per minute, over every account it signs in with. */
  RATE_LIMIT_TEXT_AGENTS_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(TEXT_AGENTS.perAddressPerMinute),
  /**
   * How payments are taken: `stripe` (the default when STRIPE_SECRET_KEY is set), `local` (the local checkout:
   * the default outside production, an explicit choice for a staging site in production) or `off`
   * (the default in production without Stripe: paying answers 503).
   */
  PAYMENTS: z.enum(['stripe', 'local', 'off']).optional(),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /**
   * The signing secret of the Connect webhook endpoint (events on creators' connected accounts:
   * account.updated, payout.paid, payout.failed), when it is a separate endpoint at Stripe; both secrets
   * are accepted on POST /api/payment/webhook.
   */
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API origin (a local fake in tests), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: z.url().optional(),
  STRIPE_SUBSCRIPTION_PRICE_ID: optionalString,
  TOPUP_PACKAGES: z
    .string()
    .optional()
    .transform((v, ctx) => parseTopupPackages(v, ctx)),
  SUBSCRIPTION_PLAN_TYPE: z.string().trim().min(1).max(40).default(SUBSCRIPTION_PLAN.planType),
  SUBSCRIPTION_PRICE_CENTS: z.coerce.number().int().min(50).default(SUBSCRIPTION_PLAN.amountCents),
  /** Credits each paid renewal of the plan grants (once per subscription and period); 0 = none. */
  SUBSCRIPTION_MONTHLY_CREDITS: z.coerce.number().int().min(0).default(SUBSCRIPTION_PLAN.monthlyCredits),
  // Social networks (issue 9): each platform is the local sandbox network unless its OAuth client is set.
  /**
   * Whether a network without live credentials is the studio's own sandbox network (a page on this studio) or
   * unavailable. Unset: true outside production, false in production.
   */
  SANDBOX_NETWORKS: bool.optional(),
  INSTAGRAM_CLIENT_ID: optionalString,
  INSTAGRAM_CLIENT_SECRET: optionalString,
  TIKTOK_CLIENT_ID: optionalString,
  TIKTOK_CLIENT_SECRET: optionalString,
  YOUTUBE_CLIENT_ID: optionalString,
  YOUTUBE_CLIENT_SECRET: optionalString,
  TWITTER_CLIENT_ID: optionalString,
  TWITTER_CLIENT_SECRET: optionalString,
  LINKEDIN_CLIENT_ID: optionalString,
  LINKEDIN_CLIENT_SECRET: optionalString,
  FACEBOOK_CLIENT_ID: optionalString,
  FACEBOOK_CLIENT_SECRET: optionalString,
  /** Other X (Twitter) API origins (local fakes in tests): API (api.x.com) and the authorize page (x.com). */
  TWITTER_API_BASE: z.url().optional(),
  TWITTER_AUTH_BASE: z.url().optional(),
  /** Other LinkedIn origins (local fakes in tests): API (api.linkedin.com) and OAuth (www.linkedin.com). */
  LINKEDIN_API_BASE: z.url().optional(),
  LINKEDIN_AUTH_BASE: z.url().optional(),
  /**
   * Other Instagram origins (local fakes in tests): the Graph API (graph.instagram.com) and OAuth (the authorize
   * page on www.instagram.com and the code exchange on api.instagram.com, both on this origin when set).
   */
  INSTAGRAM_API_BASE: z.url().optional(),
  INSTAGRAM_AUTH_BASE: z.url().optional(),
  /** Other Facebook origins (local fakes in tests): Graph API (graph.facebook.com) and Login (www.facebook.com). */
  FACEBOOK_API_BASE: z.url().optional(),
  FACEBOOK_AUTH_BASE: z.url().optional(),
  /** Other TikTok origins (local fakes in tests): API and OAuth token (open.tiktokapis.com), authorize page (www.tiktok.com). */
  TIKTOK_API_BASE: z.url().optional(),
  TIKTOK_AUTH_BASE: z.url().optional(),
  /**
   * Other Google origins for YouTube (local fakes in tests): the Data API and its upload host (www.googleapis.com),
   * the consent page (accounts.google.com), and the token endpoint (https://oauth2.googleapis.com/token, a third
   * host, so a full URL; unset with YOUTUBE_AUTH_BASE set, it is {YOUTUBE_AUTH_BASE}/token).
   */
  YOUTUBE_API_BASE: z.url().optional(),
  YOUTUBE_AUTH_BASE: z.url().optional(),
  YOUTUBE_TOKEN_URL: z.url().optional(),
  /** How often due scheduled posts are handed to the workers (seconds). */
  SOCIAL_SCHEDULER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** How often the networks' figures are read again (accounts whose figures are older than twice this). */
  SOCIAL_METRICS_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86400).default(900),
  // Gemini API (issue 10): Nano Banana images, Veo 3 video and Gemini text when the key is set.
  GEMINI_API_KEY: optionalString,
  /** Another Gemini API origin (a local fake in tests); `/v1beta/...` is appended. */
  GEMINI_API_BASE: z.url().default('https://generativelanguage.googleapis.com'),
  GEMINI_IMAGE_MODEL: z.string().trim().min(1).default('gemini-2.5-flash-image'),
  GEMINI_TEXT_MODEL: z.string().trim().min(1).default('gemini-2.5-flash'),
  /** Wait between Veo operation polls (Google's samples poll every 10 s). */
  GEMINI_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(10_000),
  /** The one account allowed to create public personas (spec 6); the demo admin in a demo, else nobody when unset. */
  PUBLIC_PERSONA_ADMIN_EMAIL: z
    .email('must be an email address')
    .transform((v) => v.toLowerCase())
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Runway (gen4_turbo, gen4_aleph, act_two): serves runway-gen4_turbo / runway-gen4_aleph / runway-act_two when the key is set.
  RUNWAY_API_KEY: optionalString,
  RUNWAY_API_BASE: z.url().default('https://api.dev.runwayml.com'),
  // BytePlus ModelArk (Seedream 4.0 images, Seedance video): serves seedream4/seedream/seedreamai and seedance* when the key is set.
  BYTEPLUS_API_KEY: optionalString,
  /** With /api/v3, e.g. https://ark.ap-southeast.bytepluses.com/api/v3. */
  BYTEPLUS_API_BASE: z.url().default('https://ark.ap-southeast.bytepluses.com/api/v3'),
  BYTEPLUS_SEEDREAM_MODEL: z.string().trim().min(1).default('seedream-4-0-250828'),
  BYTEPLUS_SEEDANCE_MODEL: z.string().trim().min(1).default('seedance-1-0-pro-250528'),
  // Upscaling vendors (issue 10): each serves its names once its key is set; the *_BASE values point at
  // another origin (a local fake in tests, a self-hosted gateway).
  REPLICATE_API_TOKEN: optionalString,
  REPLICATE_API_BASE: z.url().optional(),
  REPLICATE_ESRGAN_VERSION: optionalString,
  TOPAZ_API_KEY: optionalString,
  TOPAZ_API_BASE: z.url().optional(),
  ENHANCOR_API_KEY: optionalString,
  ENHANCOR_BASE_URL: z.url().optional(),
  // OpenAI-compatible chat (OpenAI, Ollama, vLLM, llama.cpp server): serves the default text model when
  // OPENAI_BASE_URL or OPENAI_API_KEY is set. The key is optional for local servers.
  OPENAI_API_KEY: optionalString,
  /** With or without /v1, e.g. http://localhost:11434 (Ollama); default https://api.openai.com/v1. */
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: optionalString,
  // Self-hosted image back ends: each serves the listed spec image names (comma-separated).
  COMFYUI_URL: z.url().optional(),
  COMFYUI_MODELS: z.string().default('stability').transform(list),
  /** Folder of ComfyUI API-format workflow files (text-to-image.json, …); default server/engines/comfyui/workflows. */
  COMFYUI_WORKFLOW_DIR: optionalString,
  A1111_URL: z.url().optional(),
  A1111_MODELS: z.string().default('stability').transform(list),
  /**
   * Whether names no vendor serves run on the local preview engines: on by default, off by default
   * in production (those names then answer 503 naming the variable that enables them).
   */
  LOCAL_ENGINES: bool.optional(),
  /** Prices of the local preview engines (JSON object, see parseLocalPrices); defaults LOCAL_PREVIEW_PRICES. */
  LOCAL_PREVIEW_PRICES: z
    .string()
    .optional()
    .transform((v, ctx) => parseLocalPrices(v, ctx)),
});

type ParsedConfig = z.output<typeof configSchema>;

type PaymentsMode = 'stripe' | 'local' | 'off';

export type Config = Omit<ParsedConfig, 'HOST' | 'SEED_DEMO' | 'PAYMENTS' | 'LOCAL_ENGINES' | 'SANDBOX_NETWORKS'> & {
  /** LOCAL_ENGINES, or true outside production. */
  LOCAL_ENGINES: boolean;
  /** SANDBOX_NETWORKS, or true outside production. */
  SANDBOX_NETWORKS: boolean;
  /** Whether every cookie the studio sets carries Secure: SECURE_COOKIES, else production or an https:// PUBLIC_URL. */
  secureCookies: boolean;
  /** HOST, or 127.0.0.1 when unset. */
  HOST: string;
  SEED_DEMO: boolean;
  PAYMENTS: PaymentsMode;
  /** NODE_ENV=production: no demo doors (see docs/configuration.md, "Going to production"). */
  production: boolean;
  /** HOST was set, so the studio may be reachable from other machines. */
  hostSet: boolean;
  publicUrl: string;
  dataDir: string;
  embedded: { database: boolean; storage: boolean; mail: boolean };
  /**
   * The generated secrets of APP_SECRET / MEDIA_URL_SECRET when unset, kept in the database (server_secrets) and
   * loaded by createContext (absent before it); read them through serverSecret (server/platform/secrets.ts).
   */
  storedSecrets?: Partial<Record<'APP_SECRET' | 'MEDIA_URL_SECRET', Buffer>>;
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
  const production = c.NODE_ENV === 'production';
  const payments = c.PAYMENTS ?? (c.STRIPE_SECRET_KEY ? 'stripe' : production ? 'off' : 'local');
  const problems: string[] = [];
  if (production && !c.SMTP_URL)
    problems.push(
      'SMTP_URL: required when NODE_ENV=production (verification codes must reach people by mail; the /dev/mail outbox is off in production)',
    );
  if (payments === 'stripe' && !c.STRIPE_SECRET_KEY) problems.push('PAYMENTS: "stripe" needs STRIPE_SECRET_KEY');
  const missingSecrets = (['APP_SECRET', 'MEDIA_URL_SECRET'] as const).filter((name) => !c[name]);
  if (production && c.DATABASE_URL && missingSecrets.length > 0)
    problems.push(
      `APP_SECRET and MEDIA_URL_SECRET: both required when NODE_ENV=production with DATABASE_URL (unset: ${missingSecrets.join(', ')}). Unset, the studio would keep generated ones in the database, and a key kept beside the data it protects (two-factor secrets, social tokens) protects nothing in a database dump. Set each to a random value of at least 32 characters, the same on every process (e.g. \`openssl rand -base64 48\`). To keep a secret this studio generated earlier (existing two-factor enrolments, connected networks, published media links), set the variable to base64url: followed by its value, found in DATA_DIR/secrets/app-secret and media-url-secret or in the server_secrets table.`,
    );
  if (production && c.TRUST_PROXY === undefined)
    problems.push(
      "TRUST_PROXY: required when NODE_ENV=production. Behind a reverse proxy or load balancer, set it to the proxy's addresses (e.g. TRUST_PROXY=10.0.0.2 or 10.0.0.0/8,127.0.0.1), so rate limits and log-in lock-outs count each client instead of the proxy (unset, one attacker's wrong log-ins lock every user out); with no proxy in front, set TRUST_PROXY=false to confirm it.",
    );
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  if (production && !publicUrl.startsWith('https://') && c.SECURE_COOKIES !== false)
    problems.push(
      `PUBLIC_URL: must be the studio's public https:// address when NODE_ENV=production (${c.PUBLIC_URL ? `got ${publicUrl}` : `unset, it would be ${publicUrl}`}), so session cookies carry Secure and never travel unencrypted. Behind a proxy that terminates TLS, set it to the https:// address people open (the proxy may speak plain HTTP to the studio). A site served over plain HTTP on purpose (a closed network) sets SECURE_COOKIES=false to say so.`,
    );
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const seedDemo = c.SEED_DEMO ?? !production;
  return {
    ...c,
    HOST: c.HOST ?? '127.0.0.1',
    hostSet: c.HOST !== undefined,
    SEED_DEMO: seedDemo,
    // A demo without the variable would leave public personas to nobody: its admin is the designated account.
    PUBLIC_PERSONA_ADMIN_EMAIL: c.PUBLIC_PERSONA_ADMIN_EMAIL ?? (seedDemo ? DEMO_ADMIN_EMAIL : undefined),
    LOCAL_ENGINES: c.LOCAL_ENGINES ?? !production,
    SANDBOX_NETWORKS: c.SANDBOX_NETWORKS ?? !production,
    secureCookies: c.SECURE_COOKIES ?? (production || publicUrl.startsWith('https://')),
    PAYMENTS: payments,
    production,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl,
    embedded: { database: !c.DATABASE_URL, storage: !c.S3_BUCKET, mail: !c.SMTP_URL },
  };
}

/** The demo's admin account (server/features/auth/seed.ts creates it). */
export const DEMO_ADMIN_EMAIL = 'admin@genpro.local';

function redact(name: string, value: string): string {
  return /SECRET|PASSWORD|KEY|TOKEN|DATABASE_URL|SMTP_URL/.test(name) ? '***' : value;
}
