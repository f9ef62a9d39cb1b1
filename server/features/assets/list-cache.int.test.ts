import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListAssetsReply } from '../../../common/api/assets.ts';
import { openPostgres } from '../../db/client.ts';
import { assets } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { authHeader, createTestUser, eventually, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAsset, updateAsset } from './service.ts';

// The list cache must never serve a page that misses a committed change: each write below, whichever way it
// reaches the `assets` table (on PostgreSQL also from another process's connection), is followed at once by a
// list call that must show it.
let t: TestApp;
let clock: ManualClock;
let user: TestUser;
let other: TestUser;

async function list(token: string, query = 'limit=35'): Promise<{ body: string; reply: ListAssetsReply }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/ai/assets?${query}`, headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return { body: res.body, reply: res.json() };
}

function seed(userId: string, prompt: string) {
  return createAsset(t.ctx, { userId, type: 'image', key: null, url: `/api/images/x/${prompt}.png`, prompt });
}

const prompts = (reply: ListAssetsReply) => reply.data.map((a) => a.prompt);

/** Renames an asset with its trigger off: a change the cache does not hear of. */
async function unheardRename(id: string, prompt: string) {
  await t.ctx.database.executeSql('ALTER TABLE assets DISABLE TRIGGER assets_change_notify');
  try {
    await t.ctx.db.update(assets).set({ prompt }).where(eq(assets.id, id));
  } finally {
    await t.ctx.database.executeSql('ALTER TABLE assets ENABLE TRIGGER assets_change_notify');
  }
}

/** The test database, as another API process would reach it. */
async function currentDatabaseUrl(): Promise<string> {
  const { rows } = await t.ctx.database.executeSql('SELECT current_database() AS name');
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${String(rows[0].name)}`;
  return url.toString();
}

beforeAll(async () => {
  clock = new ManualClock();
  t = await createTestApp({ clock });
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
  for (const n of [1, 2, 3]) {
    clock.advance(1000);
    await seed(user.id, `seed ${n}`);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/ai/assets list cache', () => {
  it('answers a repeated list call with the same body', async () => {
    const first = await list(user.token);
    const second = await list(user.token);
    expect(second.body).toBe(first.body);
    expect(prompts(first.reply)).toEqual(['seed 3', 'seed 2', 'seed 1']);
    expect(first.reply.pagination.total).toBe(3);
  });

  it('shows an asset registered through the route in the very next call', async () => {
    await list(user.token);
    await list(user.token, 'limit=2&offset=1&type=image');
    const stored = await storeUpload(t.ctx, user.id, await solidPng(32, 32, '#123456'), 'image/png', 'png');
    clock.advance(1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/assets',
      payload: { url: stored.url, type: 'image', prompt: 'posted' },
      headers: authHeader(user.token),
    });
    expect(res.statusCode).toBe(200);
    const { reply } = await list(user.token);
    expect(prompts(reply)[0]).toBe('posted');
    expect(reply.pagination.total).toBe(4);
    const page = await list(user.token, 'limit=2&offset=1&type=image');
    expect(prompts(page.reply)).toEqual(['seed 3', 'seed 2']);
  });

  it('shows rows written straight to the table (task completions, raw SQL) in the very next call', async () => {
    await list(user.token);
    clock.advance(1000);
    const [raw] = await t.ctx.db
      .insert(assets)
      .values({
        userId: user.id,
        type: 'video',
        url: '/api/videos/x/raw.mp4',
        prompt: 'raw insert',
        createdAt: clock.now(),
      })
      .returning();
    expect(prompts((await list(user.token)).reply)[0]).toBe('raw insert');

    await t.ctx.db.update(assets).set({ prompt: 'raw update' }).where(eq(assets.id, raw.id));
    expect(prompts((await list(user.token)).reply)[0]).toBe('raw update');

    await t.ctx.db.transaction(async (tx) => {
      await tx.update(assets).set({ status: 'failed' }).where(eq(assets.id, raw.id));
    });
    expect((await list(user.token)).reply.data[0].status).toBe('failed');

    await t.ctx.database.executeSql('DELETE FROM assets WHERE id = $1', [raw.id]);
    const after = (await list(user.token)).reply;
    expect(after.data.map((a) => a.id)).not.toContain(raw.id);
    expect(after.pagination.total).toBe(4);
  });

  it('shows a service update and a deletion through the route in the very next call', async () => {
    const { reply } = await list(user.token);
    const newest = reply.data[0];
    await updateAsset(t.ctx, user.id, newest.id, { prompt: 'renamed', status: 'processing' });
    const updated = (await list(user.token)).reply.data[0];
    expect(updated).toMatchObject({ id: newest.id, prompt: 'renamed', status: 'processing' });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/ai/assets/${newest.id}`,
      headers: authHeader(user.token),
    });
    expect(del.statusCode).toBe(200);
    const after = (await list(user.token)).reply;
    expect(after.data.map((a) => a.id)).not.toContain(newest.id);
    expect(after.pagination.total).toBe(3);
  });

  it('shows an asset moved to another user on both users’ lists', async () => {
    const mine = (await list(user.token)).reply;
    expect((await list(other.token)).reply.pagination.total).toBe(0);
    await t.ctx.db.update(assets).set({ userId: other.id }).where(eq(assets.id, mine.data[0].id));
    expect((await list(user.token)).reply.pagination.total).toBe(mine.pagination.total - 1);
    expect((await list(other.token)).reply.data.map((a) => a.id)).toEqual([mine.data[0].id]);
    await t.ctx.db.update(assets).set({ userId: user.id }).where(eq(assets.id, mine.data[0].id));
    expect((await list(user.token)).reply.pagination.total).toBe(mine.pagination.total);
  });

  // With the trigger off a raw write goes unheard, which shows what the cache serves and for how long.
  it('keeps a user’s pages through other users’ changes until the TTL', async () => {
    const before = await list(user.token);
    await unheardRename(before.reply.data[0].id, 'unheard');
    await seed(other.id, 'someone else');
    expect((await list(user.token)).body).toBe(before.body);
    clock.advance(29_000);
    expect((await list(user.token)).body).toBe(before.body);
    clock.advance(1_000);
    expect(prompts((await list(user.token)).reply)[0]).toBe('unheard');
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'shows a write committed by another process’s connection in the very next call',
    async () => {
      const elsewhere = await openPostgres(await currentDatabaseUrl(), 1);
      try {
        for (let n = 0; n < 20; n++) {
          await list(user.token);
          await list(user.token);
          clock.advance(1000);
          const [row] = await elsewhere.db
            .insert(assets)
            .values({
              userId: user.id,
              type: 'image',
              url: `/api/images/x/e${n}.png`,
              prompt: `elsewhere ${n}`,
              createdAt: clock.now(),
            })
            .returning();
          expect(prompts((await list(user.token)).reply)[0]).toBe(`elsewhere ${n}`);
          await elsewhere.executeSql('DELETE FROM assets WHERE id = $1', [row.id]);
          expect(prompts((await list(user.token)).reply)[0]).not.toBe(`elsewhere ${n}`);
        }
      } finally {
        await elsewhere.close();
      }
    },
  );

  it.runIf(process.env.TEST_DB === 'postgres')(
    'drops everything when the listening connection is lost, then caches again once it listens again',
    async () => {
      const before = await list(user.token);
      const newest = before.reply.data[0];
      await unheardRename(newest.id, 'missed while cached');
      expect((await list(user.token)).body).toBe(before.body);
      const listenerPid = async () => {
        const { rows } = await t.ctx.database.executeSql(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
        );
        return rows.length === 1 ? Number(rows[0].pid) : undefined;
      };
      const lostPid = await listenerPid();
      expect(lostPid).toBeDefined();
      await t.ctx.database.executeSql('SELECT pg_terminate_backend($1)', [lostPid]);
      await eventually(async () => prompts((await list(user.token)).reply)[0] === 'missed while cached', {
        what: 'the cache dropped',
      });
      await eventually(async () => ((await listenerPid()) ?? lostPid) !== lostPid, { what: 'listening again' });
      let round = 0;
      await eventually(
        async () => {
          const cached = await list(user.token);
          await unheardRename(newest.id, `unheard ${++round}`);
          return (await list(user.token)).body === cached.body;
        },
        { what: 'serving from the cache again' },
      );
      await t.ctx.db.update(assets).set({ prompt: newest.prompt }).where(eq(assets.id, newest.id));
      expect(prompts((await list(user.token)).reply)[0]).toBe(newest.prompt);
    },
  );

  it('announces each committed change with the owners’ ids on genpro_assets_changed', async () => {
    const heard: string[] = [];
    const stop = await t.ctx.database.listen?.('genpro_assets_changed', (userId) => heard.push(userId));
    try {
      const row = await seed(user.id, 'announced');
      await t.ctx.db.update(assets).set({ userId: other.id }).where(eq(assets.id, row.id));
      await t.ctx.database.executeSql('DELETE FROM assets WHERE id = $1', [row.id]);
      await eventually(async () => (heard.length >= 4 ? true : undefined), { what: 'four notifications' });
      expect(heard).toEqual([user.id, user.id, other.id, other.id]);
    } finally {
      await stop?.();
    }
  });
});
