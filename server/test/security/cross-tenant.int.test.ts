// Cross-tenant reads (issue 27 finding 10): a brand reading another brand's running campaign, its collaborations
// and its materials by id, and an admin reading a user's private file while that user's records answer 404.
// Each test first makes the attacker's request, then shows what now answers (docs/campaigns.md, docs/admin.md).
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog, campaignMaterials } from '../../db/schema/index.ts';
import { authHeader, solidPng, storeUpload } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { type Fixture, ROUTE_CATALOGUE } from './authz-catalogue.ts';
import { type Cast, createCast, createFixture, snapshot } from './authz-fixtures.ts';

let t: TestApp;
let cast: Cast;
let fx: Fixture;
let materialUrl: string;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function inject(method: string, url: string, token: string, payload?: unknown) {
  return t.app.inject({
    method: method as InjectOptions['method'],
    url,
    headers: authHeader(token),
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.ctx);
  fx = await createFixture(t.ctx, cast);
  // Brand A's running campaign carries a material (one of brand A's own images), as campaigns made in the studio do.
  const image = await storeUpload(t.ctx, cast.brandA.id, await solidPng(8, 8, '#cc3366'), 'image/png', 'png');
  materialUrl = image.url;
  await t.ctx.db.insert(campaignMaterials).values({ campaignId: fx.openCampaign, type: 'image', url: image.url });
});

afterAll(async () => {
  await t?.close();
});

/** The fields of a campaign that only its brand and admins (and, for collaborations, creators) may see. */
const PUBLIC_CARD_HIDES = {
  budget: null,
  budgetCents: null,
  held: null,
  heldCents: null,
  plan: null,
  materials: [],
  collaborations: [],
  pending_applications: null,
  is_owner: false,
};

describe("a brand reading another brand's running campaign", () => {
  it('every campaign route says what brand B gets for brand A’s running campaign (authz-catalogue.ts), and it does', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const undeclared: string[] = [];
    const failures: string[] = [];
    const before = await snapshot(t.ctx, fx);
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/campaigns/{id}')) continue;
      for (const method of Object.keys(ops).map((m) => m.toUpperCase())) {
        const key = `${method} ${path}`;
        const rule = ROUTE_CATALOGUE[key];
        // Routes brands may not call at all (applying) answer 403 to every brand: authorization.test.ts.
        if (Array.isArray(rule?.access) && !rule.access.includes('brand')) continue;
        if (!rule?.otherBrandLive) {
          undeclared.push(key);
          continue;
        }
        const sample = rule.request?.(fx) ?? {};
        const body = sample.body ?? (BODY_METHODS.has(method) ? {} : undefined);
        const res = await inject(method, path.replace('{id}', fx.openCampaign), cast.brandB.token, body);
        const json = res.json() as { success: boolean; code?: string; data?: Record<string, unknown> };
        if (rule.otherBrandLive === 'not-found') {
          if (res.statusCode !== 404 || json.code !== 'not_found')
            failures.push(`${key}: ${res.statusCode} ${res.body}`);
        } else if (res.statusCode !== 200) {
          failures.push(`${key}: ${res.statusCode} ${res.body}`);
        } else {
          const shown = Object.fromEntries(Object.keys(PUBLIC_CARD_HIDES).map((k) => [k, json.data?.[k]]));
          if (JSON.stringify(shown) !== JSON.stringify(PUBLIC_CARD_HIDES))
            failures.push(`${key}: ${JSON.stringify(shown)}`);
        }
      }
    }
    expect(undeclared, 'declare otherBrandLive for these routes in authz-catalogue.ts').toEqual([]);
    expect(failures).toEqual([]);
    expect(await snapshot(t.ctx, fx)).toEqual(before);
  });

  it('GET /api/campaigns/{id} by another brand: the public card (title, brand, deliverables) without budget, materials or collaborations', async () => {
    const res = await inject('GET', `/api/campaigns/${fx.openCampaign}`, cast.brandB.token);
    expect(res.statusCode).toBe(200);
    const card = res.json().data;
    expect(card).toMatchObject({ id: fx.openCampaign, title: 'Running', status: 'running', ...PUBLIC_CARD_HIDES });
    expect(res.body).not.toContain(materialUrl.split('/').pop());
    // The pool list shows brand B the same card (one rule, both ways in).
    const pool = await inject('GET', '/api/campaigns?status=running', cast.brandB.token);
    expect(pool.statusCode).toBe(200);
    const listed = (pool.json().data as { id: string }[]).find((c) => c.id === fx.openCampaign);
    expect(listed).toMatchObject(PUBLIC_CARD_HIDES);
  });

  it('GET /api/campaigns/{id}/collaborations and /assets by another brand → 404 (they answered 200 before)', async () => {
    for (const tail of ['collaborations', 'assets']) {
      const res = await inject('GET', `/api/campaigns/${fx.openCampaign}/${tail}`, cast.brandB.token);
      expect(res.statusCode, tail).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'not_found' });
    }
  });

  it('its own brand and an admin still see everything; an approved creator still sees the materials', async () => {
    for (const insider of [cast.brandA, cast.admin]) {
      const campaign = (await inject('GET', `/api/campaigns/${fx.openCampaign}`, insider.token)).json().data;
      expect(campaign.budgetCents).toBe(10_000);
      expect(campaign.collaborations).toHaveLength(1);
      expect(campaign.materials).toHaveLength(1);
      const collabs = await inject('GET', `/api/campaigns/${fx.openCampaign}/collaborations`, insider.token);
      expect(collabs.json().data[0].agreedCents).toBe(1_000);
    }
    const assets = await inject('GET', `/api/campaigns/${fx.openCampaign}/assets`, cast.creatorB.token);
    expect(assets.statusCode).toBe(200);
    expect(assets.json().data.assets).toHaveLength(1);
  });
});

describe("an admin and another user's private file", () => {
  const auditRows = (key: string) =>
    t.ctx.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, key), eq(adminAuditLog.action, 'media.read')));

  it("the plain media URL answers 404 to an admin, as creator A's asset and editor session do", async () => {
    const media = await inject('GET', fx.mediaUrl, cast.admin.token);
    expect(media.statusCode).toBe(404);
    expect(media.json()).toMatchObject({ success: false, code: 'not_found' });
    expect((await inject('GET', `/api/ai/assets/${fx.asset}`, cast.admin.token)).statusCode).toBe(404);
    expect((await inject('GET', `/api/editor-sessions/${fx.editorSession}`, cast.admin.token)).statusCode).toBe(404);
    expect(await auditRows(fx.mediaKey)).toHaveLength(0);
    // The owner still reads it.
    expect((await inject('GET', fx.mediaUrl, cast.creatorA.token)).statusCode).toBe(200);
  });

  it('GET /api/admin/media/{key} gives the admin the file and writes a media.read audit row each time', async () => {
    const res = await inject('GET', `/api/admin/media/${fx.mediaKey}?reason=Ticket%2042`, cast.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const [row] = await auditRows(fx.mediaKey);
    expect(row).toMatchObject({
      adminUserId: cast.admin.id,
      adminEmail: cast.admin.email,
      targetType: 'media',
      details: { ownerUserId: fx.creatorUserId, contentType: 'image/png', reason: 'Ticket 42' },
    });
    await inject('GET', `/api/admin/media/${fx.mediaKey}`, cast.admin.token);
    expect(await auditRows(fx.mediaKey)).toHaveLength(2);
    // The audit log page lists it.
    const log = await inject('GET', '/api/admin/audit-log', cast.admin.token);
    expect((log.json().data as { action: string; target_id: string }[])[0]).toMatchObject({
      action: 'media.read',
      target_id: fx.mediaKey,
    });
  });

  it('the admin route refuses everyone but admins (403) and answers 404 for unknown keys without an audit row', async () => {
    for (const user of [cast.creatorB, cast.brandB, cast.creatorA]) {
      expect((await inject('GET', `/api/admin/media/${fx.mediaKey}`, user.token)).statusCode).toBe(403);
    }
    const ghost = 'upload/00000000-0000-4000-8000-000000000000.png';
    expect((await inject('GET', `/api/admin/media/${ghost}`, cast.admin.token)).statusCode).toBe(404);
    expect((await inject('GET', '/api/admin/media/..%2F..%2Fetc%2Fpasswd', cast.admin.token)).statusCode).toBe(404);
    expect(await auditRows(ghost)).toHaveLength(0);
  });
});
