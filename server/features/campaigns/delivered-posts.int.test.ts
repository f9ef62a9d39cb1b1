import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignCollaboration } from '../../../common/api/campaigns.ts';
import { campaigns, collaborations, users } from '../../db/schema/index.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { connectSandbox, publishNow } from '../social/testing.ts';

// Issue 29, point 6: the brand sees what was published for a collaboration (preview, network, link, figures)
// against the deliverables, and only the brand, admins and the creator see the posts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });

describe('posts delivered for a collaboration', () => {
  it('lists each published post with a preview the brand can open, its link and the deliverable it fills', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const outsider = await createTestUser(t.ctx.db, { role: 'creator' });
    for (const who of [creator, outsider])
      await t.ctx.db.update(users).set({ userStatus: 'approved_creator' }).where(eq(users.id, who.id));
    const [campaign] = await t.ctx.db
      .insert(campaigns)
      .values({ brandUserId: brand.id, title: 'Spring', objective: 'Awareness', status: 'running', budgetCents: 9000 })
      .returning();
    const deliverables = [
      { type: 'Instagram posts', quantity: 1, platform: 'instagram' as const, contentType: 'image' as const },
      { type: 'TikTok video', quantity: 1, platform: 'tiktok' as const, contentType: 'video' as const },
    ];
    const [collab] = await t.ctx.db
      .insert(collaborations)
      .values({ campaignId: campaign?.id as string, creatorUserId: creator.id, agreedCents: 5000, deliverables })
      .returning();
    const campaignId = campaign?.id as string;

    const png = await solidPng(400, 300, '#cc3366');
    const stored = await storeUpload(t.ctx, creator.id, png, 'image/png', 'png');
    await connectSandbox(t, creator, 'instagram');
    for (const message of ['First look at the spring shoe', 'One more, beyond what was asked'])
      await publishNow(t, creator, {
        message,
        platforms: ['instagram'],
        media_urls: [stored.url],
        selected_collaborations: [collab?.id],
      });

    const res = await get(`/api/campaigns/${campaignId}`, brand);
    expect(res.statusCode, res.body).toBe(200);
    const [shown] = res.json().data.collaborations as CampaignCollaboration[];
    expect(shown?.progress).toEqual({ completed: 1, total: 2, percent: 50 });
    expect(shown?.posts.map((p) => [p.platform, p.media_type, p.message, p.deliverable_index])).toEqual([
      ['instagram', 'image', 'First look at the spring shoe', 0],
      ['instagram', 'image', 'One more, beyond what was asked', null],
    ]);
    const [first] = shown?.posts ?? [];
    expect(first?.share_url).toMatch(/\/social\/sandbox\/instagram\/posts\/[0-9a-f-]{36}$/);
    expect(first?.published_at).toEqual(expect.any(String));
    // The creator's file, signed for the brand: it opens with the brand's session and decodes as the image posted.
    expect(first?.preview_url).toMatch(/\?expires=\d+&sig=/);
    const preview = await get(first?.preview_url as string, brand);
    expect(preview.statusCode).toBe(200);
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ width: 400, height: 300 });

    // The creator sees them too (My Active Collaborations); another creator sees the campaign without them.
    const mine = await get('/api/collaborations/my-active', creator);
    expect(mine.json().data[0].posts).toHaveLength(2);
    const other = await get(`/api/campaigns/${campaignId}`, outsider);
    expect(other.statusCode, other.body).toBe(200);
    const [seen] = other.json().data.collaborations as CampaignCollaboration[];
    expect(seen?.posts).toEqual([]);
    expect(seen?.performance_metrics.total_posts).toBe(2);
  });
});
