// Test fixtures shared by features' integration tests. Add helpers; do not change existing ones.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import sharp from 'sharp';
import { TRIAL_DAYS, TRIAL_PLAN } from '../../common/api/auth.constants.ts';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { personas, sessions, subscriptions, tasks, users } from '../db/schema/index.ts';
import type { PersonaImages } from '../db/schema/personas.ts';
import { DUMMY_PASSWORD_HASH, generateToken, sha256 } from '../platform/auth/crypto.ts';
import type { TaskRow } from '../platform/jobs/types.ts';
import { MediaStore, type MediaStoreDeps, type StoredMedia } from '../platform/media/store.ts';
import { ffmpegPath, runTool } from '../platform/media/tools.ts';

export interface TestUser {
  id: string;
  email: string;
  /** A session token for `authorization: Bearer` or the session cookie. */
  token: string;
}

/**
 * Inserts a verified user (with `credits` on the balance, no ledger row) and a session for it. Like a
 * registration, the user has a running free trial (spending credits needs subscription access);
 * `subscription: false` leaves the user without a subscription row.
 */
export async function createTestUser(
  db: Db,
  options: { credits?: number; role?: 'creator' | 'brand' | 'admin'; subscription?: false } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const email = `test-${id}@example.com`;
  const role = options.role ?? 'creator';
  await db.insert(users).values({
    id,
    firstName: 'Test',
    lastName: 'User',
    email,
    passwordHash: DUMMY_PASSWORD_HASH,
    role,
    userStatus: role === 'creator' ? 'approved_creator' : null,
    isVerified: true,
    credits: options.credits ?? 0,
  });
  if (options.subscription !== false) {
    await db.insert(subscriptions).values({
      userId: id,
      planType: TRIAL_PLAN,
      status: 'trialing',
      trialEnd: new Date(Date.now() + TRIAL_DAYS * 86_400_000),
    });
  }
  const token = generateToken();
  await db.insert(sessions).values({
    userId: id,
    tokenHash: sha256(token),
    deviceType: 'desktop',
    userAgent: 'vitest',
    location: 'Test',
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { id, email, token };
}

/** Inserts a ready persona of the user (private unless `isPublic`), without images; returns its id. */
export async function createTestPersona(db: Db, userId: string, options: { isPublic?: boolean } = {}): Promise<string> {
  const [row] = await db
    .insert(personas)
    .values({
      userId,
      name: 'Nova',
      description: 'A cheerful fitness coach',
      personality: 'friendly',
      language: 'en',
      isPublic: options.isPublic ?? false,
      status: 'ready',
      images: {} as PersonaImages,
    })
    .returning({ id: personas.id });
  return row.id;
}

/** The balance stored on the user. */
export async function creditsOf(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row.credits;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  {
    timeoutMs = 15_000,
    intervalMs = 50,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A PNG of one solid colour. */
export function solidPng(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

/** A file ffmpeg makes from a lavfi source (a test pattern, a tone, …), read back. */
export async function makeLavfiMedia(
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
  file: string,
  source: string,
  encodeArgs: readonly string[] = [],
): Promise<Buffer> {
  await runTool(ffmpegPath(config), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    source,
    ...encodeArgs,
    '-y',
    file,
  ]);
  return readFile(file);
}

/** An H.264 MP4 of ffmpeg's test pattern, made as `clip.mp4` in `dir`. */
export function makeTestClip(
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
  dir: string,
  clip: { seconds: number; width: number; height: number; fps: number },
): Promise<Buffer> {
  return makeLavfiMedia(
    config,
    path.join(dir, 'clip.mp4'),
    `testsrc=duration=${clip.seconds}:size=${clip.width}x${clip.height}:rate=${clip.fps}`,
    ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'],
  );
}

/** Stores bytes as the user's upload (class `upload`). */
export function storeUpload(
  deps: MediaStoreDeps,
  userId: string,
  body: Buffer,
  contentType: string,
  ext: string,
): Promise<StoredMedia> {
  return new MediaStore(deps).put({ body, contentType, ext, storageClass: 'upload', userId, source: 'upload' });
}

export interface FilePart {
  /** The form field; `file` unless given. */
  name?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(fields: Record<string, string>, file?: FilePart | FilePart[]) {
  const boundary = `----genpro${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const part of Array.isArray(file) ? file : file ? [file] : []) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name ?? 'file'}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Polls the task until it has completed or failed. */
export function waitForTask(
  db: Db,
  id: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<TaskRow> {
  return eventually(
    async () => {
      const [task] = await db.select().from(tasks).where(eq(tasks.id, id));
      return task && (task.status === 'completed' || task.status === 'failed') ? task : undefined;
    },
    { ...options, what: `task ${id}` },
  );
}

/**
 * pg-boss as another process would run it on the test database (no supervision, no schedules): a worker
 * that fetches a job and then dies, for the crash and lease tests. Stop it with `{ graceful: false, close: false }`.
 */
export async function startOtherProcessBoss(database: Database): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) },
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  return boss;
}
