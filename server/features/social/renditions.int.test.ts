import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaObjects } from '../../db/schema/index.ts';
import { createTestUser, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { jpegRendition } from './renditions.ts';

// The JPEG renditions Instagram is sent instead of PNG/WebP (renditions.ts): one per source file, shared by every
// caller through the media store, whichever made it.

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { role: 'brand' });
});
afterAll(async () => {
  await t?.close();
});

const renditionRows = () =>
  t.ctx.db
    .select({ key: mediaObjects.key, expiresAt: mediaObjects.expiresAt })
    .from(mediaObjects)
    .where(and(eq(mediaObjects.userId, user.id), sql`${mediaObjects.tags}->>'Source' = 'jpeg-rendition'`));

describe('JPEG renditions', () => {
  it('callers racing for the same file each get a stored rendition, none removed under them; later ones share the oldest', async () => {
    const png = await sharp({ create: { width: 90, height: 60, channels: 4, background: '#00ff0080' } })
      .png()
      .toBuffer();
    const source = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const read = async () => png;
    const made = await Promise.all(
      Array.from({ length: 4 }, () => jpegRendition(t.ctx, user.id, { key: source.key, read })),
    );
    expect(made[0]).toMatchObject({ contentType: 'image/jpeg', width: 90, height: 60 });
    expect(made[0]?.path).toBe(`/api/images/${made[0]?.key}`);
    // Every rendition handed out is still stored (a racing maker only drops its own, before handing it out).
    const rows = (await renditionRows()).map((r) => r.key);
    for (const r of made) expect(rows).toContain(r.key);
    expect(rows.length).toBeLessThanOrEqual(made.length);
    // From now on everybody gets the same one, whatever process asks.
    const later = await Promise.all([1, 2].map(() => jpegRendition(t.ctx, user.id, { key: source.key, read })));
    expect(later[0]?.key).toBe(later[1]?.key);
    expect(rows).toContain(later[0]?.key);
    expect((await renditionRows()).length).toBe(rows.length);
    const stored = await t.ctx.storage.read(later[0]?.key as string);
    const chunks: Buffer[] = [];
    for await (const c of stored) chunks.push(c as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'jpeg', hasAlpha: false });
  });

  it('a downloaded image is known by its bytes; a rendition close to its expiry is made again', async () => {
    const webp = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#884422' } })
      .webp()
      .toBuffer();
    const read = async () => webp;
    const first = await jpegRendition(t.ctx, user.id, { key: null, read });
    expect((await jpegRendition(t.ctx, user.id, { key: null, read })).key).toBe(first.key);
    // Two hours left: the network might fetch it after it is gone.
    await t.ctx.db
      .update(mediaObjects)
      .set({ expiresAt: new Date(t.ctx.clock.now().getTime() + 2 * 3600_000) })
      .where(eq(mediaObjects.key, first.key));
    const fresh = await jpegRendition(t.ctx, user.id, { key: null, read });
    expect(fresh.key).not.toBe(first.key);
    expect(fresh).toMatchObject({ width: 40, height: 40 });
  });
});
