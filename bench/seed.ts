// Bench data written straight into the database before the studio starts: the demo accounts, then 10 000
// library assets for the creator (bulk inserts) backed by one tiny real image and its thumbnail.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { type Database, openPglite, openPostgres } from '../server/db/client.ts';
import { assets, users } from '../server/db/schema/index.ts';
import { seedDemoIfEmpty } from '../server/features/auth/seed.ts';
import { systemClock } from '../server/platform/clock.ts';
import { addCredits } from '../server/platform/credits/ledger.ts';
import { MediaStore } from '../server/platform/media/store.ts';
import { LocalStorage } from '../server/platform/storage/local.ts';

const BENCH_USER = { email: 'creator@genpro.local', password: 'genpro-creator' };

/** The studio's database for a data dir (PGlite under DATA_DIR/pg, as the server opens it) or a PostgreSQL URL. */
export async function openBenchDatabase(target: { dataDir: string; databaseUrl?: string }): Promise<Database> {
  const database = target.databaseUrl
    ? await openPostgres(target.databaseUrl, 4)
    : await openPglite({ dataDir: path.join(target.dataDir, 'pg') });
  await database.migrate();
  return database;
}

/** Migrates, creates the demo accounts and returns the bench user's id. */
async function seedUser(database: Database): Promise<string> {
  await seedDemoIfEmpty({ db: database.db, clock: systemClock });
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, BENCH_USER.email));
  if (!user) throw new Error('the demo creator was not created');
  return user.id;
}

/** The bench user with `count` image assets, newest one second apart, all pointing at one stored image. */
export async function seedAssets(target: { dataDir: string; databaseUrl?: string }, count: number): Promise<void> {
  const database = await openBenchDatabase(target);
  try {
    const userId = await seedUser(database);
    const store = new MediaStore({
      db: database.db,
      storage: new LocalStorage(path.join(target.dataDir, 'media')),
      clock: systemClock,
    });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const webp = await sharp(png).webp().toBuffer();
    const image = await store.put({
      body: png,
      contentType: 'image/png',
      storageClass: 'generated',
      ext: 'png',
      userId,
    });
    const thumb = await store.put({
      body: webp,
      contentType: 'image/webp',
      storageClass: 'thumbnail',
      ext: 'webp',
      userId,
    });
    const start = Date.now() - count * 1000;
    const CHUNK = 1000;
    for (let offset = 0; offset < count; offset += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, count - offset) }, (_, i) => {
        const n = offset + i;
        const at = new Date(start + n * 1000);
        return {
          userId,
          type: 'image' as const,
          key: image.key,
          url: image.url,
          thumbnailKey: thumb.key,
          prompt: `bench asset ${n}: a blue square on a plain background`,
          metadata: { width: 64, height: 64, seed: n },
          status: 'completed' as const,
          service: 'local',
          model: 'nanobana',
          creditsUsed: 4,
          createdAt: at,
          updatedAt: at,
        };
      });
      await database.db.insert(assets).values(rows);
    }
  } finally {
    await database.close();
  }
}

/** The bench user with enough credits for `credits` worth of tasks. */
export async function seedCredits(target: { dataDir: string; databaseUrl?: string }, credits: number): Promise<void> {
  const database = await openBenchDatabase(target);
  try {
    const userId = await seedUser(database);
    await addCredits(database.db, { userId, amount: credits, source: 'admin', description: 'bench credits' });
  } finally {
    await database.close();
  }
}

/** A bearer token for the bench user, from POST /api/auth/login. */
export async function logIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!res.ok || !body.data?.token) throw new Error(`log-in failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}
