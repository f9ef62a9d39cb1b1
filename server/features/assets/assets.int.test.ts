import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, ListAssetsReply } from '../../../common/api/assets.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAsset, getAsset, replaceAssetFile, toAssetDto } from './service.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let png: Buffer;

function storeFor(userId: string, body: Buffer) {
  return storeUpload(t.ctx, userId, body, 'image/png', 'png');
}

function get(url: string, token?: string) {
  return t.app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
}

function post(url: string, payload: unknown, token?: string) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? authHeader(token) : {} });
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 50 });
  other = await createTestUser(t.ctx.db, { credits: 50 });
  png = await solidPng(640, 360, '#3366aa');
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/ai/assets', () => {
  it('registers the user’s own media with a WebP thumbnail and never trusts credits_used', async () => {
    const stored = await storeFor(user.id, png);
    const res = await post(
      '/api/ai/assets',
      {
        type: 'image',
        url: `${t.config.publicUrl}${stored.url}`,
        prompt: 'a blue card',
        metadata: { source: 'canvas', editingTool: 'quick-edit' },
        credits_used: 500,
        service: 'nanobana',
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const asset = (res.json() as { data: Asset }).data;
    expect(asset).toMatchObject({
      type: 'image',
      url: stored.url,
      prompt: 'a blue card',
      status: 'completed',
      credits_used: 0,
      service: 'nanobana',
      metadata: { source: 'canvas', editingTool: 'quick-edit' },
    });
    expect(asset.thumbnail_url).toMatch(/^\/api\/images\/thumbnail\/.+\.webp$/);
    const thumb = await get(asset.thumbnail_url!, user.token);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBeLessThanOrEqual(480);
  });

  it('saving again with the same id updates the asset', async () => {
    const stored = await storeFor(user.id, png);
    const id = '0b7c6f8e-3d2a-4c1b-9e8f-7a6b5c4d3e2f';
    const first = await post('/api/ai/assets', { id, type: 'image', url: stored.url, prompt: 'v1' }, user.token);
    expect(first.statusCode).toBe(200);
    const second = await post('/api/ai/assets', { id, type: 'image', url: stored.url, prompt: 'v2' }, user.token);
    expect(second.statusCode).toBe(200);
    expect((second.json() as { data: Asset }).data).toMatchObject({ id, prompt: 'v2' });
    const taken = await post(
      '/api/ai/assets',
      { id, type: 'image', url: (await storeFor(other.id, png)).url },
      other.token,
    );
    expect(taken.statusCode).toBe(409);
  });

  it('refuses another user’s media, outside URLs and data URIs with the library message', async () => {
    const theirs = await storeFor(other.id, png);
    for (const url of [theirs.url, 'https://cdn.example.org/a.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      const res = await post('/api/ai/assets', { type: 'image', url }, user.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: MESSAGES.assets.notYourMedia });
    }
  });

  it('refuses a type that does not match the file', async () => {
    const stored = await storeFor(user.id, png);
    const res = await post('/api/ai/assets', { type: 'video', url: stored.url }, user.token);
    expect(res.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await post('/api/ai/assets', { type: 'image', url: '/api/images/upload/x.png' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/ai/assets', () => {
  let lister: TestUser;
  const ids: string[] = [];
  beforeAll(async () => {
    lister = await createTestUser(t.ctx.db);
    const types = ['image', 'image', 'video', 'enhancement', 'image', 'video_enhancement'] as const;
    const base = Date.now() - 60_000;
    for (const [i, type] of types.entries()) {
      const row = await createAsset(
        { db: t.ctx.db, clock: { now: () => new Date(base + i * 1000) } },
        {
          userId: lister.id,
          type,
          key: null,
          url: `/api/images/upload/2025/01/00000000-0000-4000-8000-00000000000${i}.png`,
          prompt: `asset ${i}`,
          personaId: i === 0 ? '5f0e4c6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a' : null,
        },
      );
      ids.push(row.id);
    }
  });

  it('pages newest first with hasMore and total (default page 35)', async () => {
    const first = await get('/api/ai/assets?limit=4', lister.token);
    expect(first.statusCode).toBe(200);
    const page1 = first.json() as ListAssetsReply;
    expect(page1.data.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 4));
    expect(Object.keys(page1).sort()).toEqual(['data', 'pagination', 'success']);
    expect(page1.pagination).toEqual({ offset: 0, limit: 4, hasMore: true, total: 6 });
    const page2 = (await get('/api/ai/assets?limit=4&offset=4', lister.token)).json() as ListAssetsReply;
    expect(page2.data.map((a) => a.id)).toEqual([ids[1], ids[0]]);
    expect(page2.pagination).toEqual({ offset: 4, limit: 4, hasMore: false, total: 6 });
    const all = (await get('/api/ai/assets', lister.token)).json() as ListAssetsReply;
    expect(all.pagination.limit).toBe(35);
    expect(all.data).toHaveLength(6);
  });

  it('filters by one type or a list split by | or , and by persona', async () => {
    const piped = (
      await get('/api/ai/assets?type=enhancement|video|video_enhancement&limit=50', lister.token)
    ).json() as ListAssetsReply;
    expect(piped.data.map((a) => a.type).sort()).toEqual(['enhancement', 'video', 'video_enhancement']);
    expect(piped.pagination.total).toBe(3);
    const comma = (await get('/api/ai/assets?type=image,video', lister.token)).json() as ListAssetsReply;
    expect(comma.pagination.total).toBe(4);
    const one = (await get('/api/ai/assets?type=image', lister.token)).json() as ListAssetsReply;
    expect(one.pagination.total).toBe(3);
    const persona = (
      await get('/api/ai/assets?persona_id=5f0e4c6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a', lister.token)
    ).json() as ListAssetsReply;
    expect(persona.data.map((a) => a.id)).toEqual([ids[0]]);
    const bad = await get('/api/ai/assets?type=image|pictures', lister.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: MESSAGES.assets.unknownType('pictures') });
  });

  it('shows only the user’s own assets and needs a session', async () => {
    const theirs = (await get('/api/ai/assets', other.token)).json() as ListAssetsReply;
    expect(theirs.data.some((a) => ids.includes(a.id))).toBe(false);
    expect((await get('/api/ai/assets')).statusCode).toBe(401);
    expect((await get('/api/ai/assets?limit=101', lister.token)).statusCode).toBe(400);
  });
});

describe('GET /api/ai/assets: search, sort and type together (the Library view)', () => {
  let owner: TestUser;
  const made: Record<string, string> = {};
  beforeAll(async () => {
    owner = await createTestUser(t.ctx.db);
    const rows = [
      ['fox', 'image', 'A red FOX in the snow'],
      ['boat', 'image', 'boat on a calm lake'],
      ['foxVideo', 'video', 'fox running, slow motion'],
      ['percent', 'image', '100% orange_juice'],
      ['none', 'audio', null],
    ] as const;
    const base = Date.now() - 60_000;
    for (const [i, [name, type, prompt]] of rows.entries()) {
      const row = await createAsset(
        { db: t.ctx.db, clock: { now: () => new Date(base + i * 1000) } },
        {
          userId: owner.id,
          type,
          key: null,
          url: `/api/images/upload/2025/02/00000000-0000-4000-8000-00000000010${i}.png`,
          prompt,
        },
      );
      made[name] = row.id;
    }
    // Another user's fox never shows.
    await createAsset(t.ctx, { userId: other.id, type: 'image', key: null, url: '/x.png', prompt: 'fox of another' });
  });

  const list = async (query: string) => {
    const res = await get(`/api/ai/assets?${query}`, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ListAssetsReply;
  };

  it('finds every word of q in the prompt, in any case, only among the owner’s assets', async () => {
    const fox = await list('q=fox');
    expect(fox.data.map((a) => a.id)).toEqual([made.foxVideo, made.fox]);
    expect(fox.pagination.total).toBe(2);
    expect((await list('q=%20Red%20%20fox%20')).data.map((a) => a.id)).toEqual([made.fox]);
    expect((await list('q=fox%20lake')).data).toEqual([]);
    // q with the type filter and pagination.
    const foxImages = await list('q=fox&type=image&limit=1');
    expect(foxImages.data.map((a) => a.id)).toEqual([made.fox]);
    expect(foxImages.pagination).toEqual({ offset: 0, limit: 1, hasMore: false, total: 1 });
  });

  it('takes % and _ literally', async () => {
    expect((await list('q=100%25')).data.map((a) => a.id)).toEqual([made.percent]);
    expect((await list('q=e_j')).data.map((a) => a.id)).toEqual([made.percent]);
    expect((await list('q=%25')).data.map((a) => a.id)).toEqual([made.percent]);
    expect((await list('q=_')).data.map((a) => a.id)).toEqual([made.percent]);
  });

  it('sorts newest first by default, oldest first, or by prompt A to Z with prompt-less ones last', async () => {
    const order = [made.fox, made.boat, made.foxVideo, made.percent, made.none];
    expect((await list('')).data.map((a) => a.id)).toEqual([...order].reverse());
    expect((await list('sort=newest')).data.map((a) => a.id)).toEqual([...order].reverse());
    expect((await list('sort=oldest')).data.map((a) => a.id)).toEqual(order);
    expect((await list('sort=prompt')).data.map((a) => a.id)).toEqual([
      made.percent,
      made.fox,
      made.boat,
      made.foxVideo,
      made.none,
    ]);
    const paged = await list('sort=oldest&limit=2&offset=2');
    expect(paged.data.map((a) => a.id)).toEqual([made.foxVideo, made.percent]);
    expect(paged.pagination).toEqual({ offset: 2, limit: 2, hasMore: true, total: 5 });
  });

  it('answers a new page after a change, never a cached one of another query', async () => {
    expect((await list('q=lake')).pagination.total).toBe(1);
    expect((await list('q=LAKE')).pagination.total).toBe(1);
    const added = await createAsset(t.ctx, {
      userId: owner.id,
      type: 'image',
      key: null,
      url: '/y.png',
      prompt: 'lake at dusk',
    });
    expect((await list('q=lake')).data.map((a) => a.id)).toEqual([added.id, made.boat]);
  });

  it('validates sort and the length of q, and needs a session', async () => {
    const badSort = await get('/api/ai/assets?sort=largest', owner.token);
    expect(badSort.statusCode).toBe(400);
    const long = await get(`/api/ai/assets?q=${'a'.repeat(201)}`, owner.token);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ success: false });
    expect(JSON.stringify(long.json())).toContain('Search at most 200 characters');
    expect((await get('/api/ai/assets?q=fox')).statusCode).toBe(401);
  });
});

describe('GET and DELETE /api/ai/assets/{id}', () => {
  it('reads one asset with its metadata; another user’s is 404', async () => {
    const stored = await storeFor(user.id, png);
    const created = (
      (await post('/api/ai/assets', { type: 'image', url: stored.url, metadata: { k: 'v' } }, user.token)).json() as {
        data: Asset;
      }
    ).data;
    const res = await get(`/api/ai/assets/${created.id}`, user.token);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: Asset }).data).toMatchObject({ id: created.id, metadata: { k: 'v' } });
    expect((await get(`/api/ai/assets/${created.id}`, other.token)).statusCode).toBe(404);
    expect((await get(`/api/ai/assets/${created.id}`)).statusCode).toBe(401);
    expect((await get('/api/ai/assets/00000000-0000-4000-8000-000000000000', user.token)).statusCode).toBe(404);
  });

  it('deletes the asset and its files; another user cannot', async () => {
    const stored = await storeFor(user.id, png);
    const asset = (
      (await post('/api/ai/assets', { type: 'image', url: stored.url }, user.token)).json() as { data: Asset }
    ).data;
    const del = (token?: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/ai/assets/${asset.id}`,
        headers: token ? authHeader(token) : {},
      });
    expect((await del()).statusCode).toBe(401);
    expect((await del(other.token)).statusCode).toBe(404);
    expect((await get(asset.url, user.token)).statusCode).toBe(200);
    const res = await del(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: asset.id, deleted: true } });
    expect((await get(asset.url, user.token)).statusCode).toBe(404);
    expect((await get(asset.thumbnail_url!, user.token)).statusCode).toBe(404);
    expect((await get(`/api/ai/assets/${asset.id}`, user.token)).statusCode).toBe(404);
    expect((await del(user.token)).statusCode).toBe(404);
  });
});

describe('replaceAssetFile', () => {
  it('points the asset at the new file and keeps the original in metadata', async () => {
    const original = await storeFor(user.id, png);
    const asset = await createAsset(t.ctx, {
      userId: user.id,
      type: 'image',
      key: original.key,
      url: original.url,
      metadata: { source: 'generation' },
    });
    const big = await storeFor(user.id, png);
    const replaced = await replaceAssetFile(t.ctx, {
      userId: user.id,
      assetId: asset.id,
      key: big.key,
      url: big.url,
      metadataPatch: { replaced_by_enhancement: true, enhancement: { service: 'image-upscaler' } },
    });
    expect(toAssetDto(replaced)).toMatchObject({
      url: big.url,
      metadata: {
        source: 'generation',
        original_url: original.url,
        original_key: original.key,
        replaced_by_enhancement: true,
        enhancement: { service: 'image-upscaler' },
      },
    });
    // A second replacement keeps the first original and removes the file in between.
    const bigger = await storeFor(user.id, png);
    await replaceAssetFile(t.ctx, { userId: user.id, assetId: asset.id, key: bigger.key, url: bigger.url });
    const row = await getAsset(t.ctx, user.id, asset.id);
    expect(row.metadata.original_key).toBe(original.key);
    expect((await get(big.url, user.token)).statusCode).toBe(404);
    expect((await get(original.url, user.token)).statusCode).toBe(200);
    await expect(
      replaceAssetFile(t.ctx, { userId: other.id, assetId: asset.id, key: bigger.key, url: bigger.url }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
