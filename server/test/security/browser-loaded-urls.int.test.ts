// URL fields whose value a browser later loads (issue 27 finding 7). A brand logo took any URL, so every creator's
// and admin's browser fetched https://tracker.example/pixel.gif or http://169.254.169.254/… from the studio's
// pages. Every URL-ish input of the OpenAPI document is classified here; each one a page shows as an image takes
// only the user's own stored media, and the attacker's values (an external URL, a metadata address, javascript:
// and data: URLs) are refused. The pages' CSP img-src names no third party either.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { brandProfiles, campaigns, socialAccounts } from '../../db/schema/index.ts';
import { authHeader, multipart, solidPng, storeUpload, type TestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import type { Fixture } from './authz-catalogue.ts';
import { type Cast, createCast, createFixture } from './authz-fixtures.ts';

let t: TestApp;
let cast: Cast;
let fx: Fixture;
/** Own images of each caller, for the control requests. */
let own: Record<'creatorA' | 'brandA', string>;

const EXTERNAL = 'https://tracker.example/pixel.gif';
const METADATA = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const JAVASCRIPT = 'javascript:alert(document.cookie)';
const DATA_HTML = 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==';
const DATA_SVG = 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+';
const DATA_PNG = 'data:image/png;base64,iVBORw0KGgo=';

/**
 * What the page does with the value:
 * - image: shown in an <img> (to its owner or to others): only the user's own stored media;
 * - inline-image: the same, or a base64 PNG/JPEG/WebP/GIF data: URL (canvas exports);
 * - link: an <a href> the user clicks, never loaded by itself: any http(s) URL, never javascript:/data:;
 * - navigation: where the browser is sent back after a checkout: the studio's own origin only;
 * - network: media of a social post, fetched by the network that publishes it; public http(s) or own media;
 *   the studio's pages do not load a third party's copy (CSP img-src, below);
 * - server-fetched: a generation input the server reads with safeFetch (private addresses refused: SSRF
 *   attacks in attacks.int.test.ts); the browser only ever sees the stored result.
 */
type Kind = 'image' | 'inline-image' | 'link' | 'navigation' | 'network' | 'server-fetched';

interface UrlField {
  kind: Kind;
  as?: 'creatorA' | 'brandA';
  method?: string;
  url?: (fx: Fixture) => string;
  body?: (value: string, fx: Fixture) => unknown;
  /** A request with an acceptable value, answered 2xx: the refusals above are about the value. */
  control?: (fx: Fixture) => string;
}

const draftCampaign = {
  title: 'Spring',
  objective: 'Awareness',
  budget: 100,
  platforms: ['instagram'],
  contentTypes: ['image'],
  status: 'draft',
};
/** Valid session data of the multi-reference tool. */
const REFS_DATA = { referenceImages: [], prompt: '' };
const ownImage = (who: 'creatorA' | 'brandA') => () => own[who];

/** Every URL-ish input field of the OpenAPI document: `METHOD /path field`. */
const FIELDS: Record<string, UrlField> = {
  'PATCH /api/brands/profile logoUrl': {
    kind: 'image',
    as: 'brandA',
    body: (v) => ({ logoUrl: v }),
    control: ownImage('brandA'),
  },
  'PATCH /api/brands/profile companyWebsite': { kind: 'link', as: 'brandA', body: (v) => ({ companyWebsite: v }) },
  'PATCH /api/creators/profile website': { kind: 'link', body: (v) => ({ website: v }) },
  'PATCH /api/creators/profile socialLinks': { kind: 'link', body: (v) => ({ socialLinks: { instagram: v } }) },
  'PUT /api/users/profile website': { kind: 'link', body: (v) => ({ website: v }) },
  'POST /api/ai/assets url': {
    kind: 'image',
    body: (v) => ({ type: 'image', url: v }),
    control: ownImage('creatorA'),
  },
  'POST /api/editor-sessions thumbnail_url': {
    kind: 'inline-image',
    body: (v) => ({ name: 'S', component_type: 'multi-reference', data: REFS_DATA, thumbnail_url: v }),
    control: () => DATA_PNG,
  },
  'PUT /api/editor-sessions/{id} thumbnail_url': {
    kind: 'inline-image',
    url: (f) => `/api/editor-sessions/${f.editorSession}`,
    body: (v) => ({ thumbnail_url: v }),
    control: ownImage('creatorA'),
  },
  'PUT /api/editor-sessions/autosave/{component_type} thumbnail_url': {
    kind: 'inline-image',
    url: () => '/api/editor-sessions/autosave/multi-reference',
    body: (v) => ({ data: REFS_DATA, thumbnail_url: v }),
    control: () => DATA_PNG,
  },
  'POST /api/characters images': {
    kind: 'image',
    body: (v) => ({ name: 'C', images: [v] }),
    control: ownImage('creatorA'),
  },
  'POST /api/characters imageUrl': {
    kind: 'image',
    body: (v) => ({ name: 'C', imageUrl: v }),
    control: ownImage('creatorA'),
  },
  'PUT /api/characters/{id} images': {
    kind: 'image',
    url: (f) => `/api/characters/${f.character}`,
    body: (v) => ({ name: 'C', images: [v] }),
    control: ownImage('creatorA'),
  },
  'PUT /api/characters/{id} imageUrl': {
    kind: 'image',
    url: (f) => `/api/characters/${f.character}`,
    body: (v) => ({ name: 'C', imageUrl: v }),
    control: ownImage('creatorA'),
  },
  'POST /api/personas custom_images': {
    kind: 'image',
    body: (v) => ({ name: 'P', description: 'D', custom_images: [v] }),
  },
  'POST /api/personas characterImages': {
    kind: 'image',
    body: (v) => ({ name: 'P', description: 'D', characterImages: [v] }),
  },
  'POST /api/personas avatar_url': { kind: 'image', body: (v) => ({ name: 'P', description: 'D', avatar_url: v }) },
  'POST /api/personas/{id}/update-images ai_generated_images': {
    kind: 'image',
    url: (f) => `/api/personas/${f.persona}/update-images`,
    body: (v) => ({ ai_generated_images: { portrait: v } }),
    control: ownImage('creatorA'),
  },
  'POST /api/campaigns sessionMaterials.[].url': {
    kind: 'image',
    as: 'brandA',
    body: (v) => ({ ...draftCampaign, sessionMaterials: [{ url: v }] }),
    control: ownImage('brandA'),
  },
  'POST /api/social/publish media_urls': {
    kind: 'network',
    // A JPEG: Instagram takes no GIF (common/rules/social-media.ts); the refusals are about the URL.
    control: () => 'https://tracker.example/photo.jpg',
    body: (v, f) => ({
      message: 'Hi',
      platforms: ['instagram'],
      media_urls: [v],
      selected_collaborations: [f.collaboration],
    }),
  },
  'POST /api/social/scheduled-posts media_urls': {
    kind: 'network',
    // A JPEG: Instagram takes no GIF (common/rules/social-media.ts); the refusals are about the URL.
    control: () => 'https://tracker.example/photo.jpg',
    body: (v, f) => ({
      message: 'Hi',
      platforms: ['instagram'],
      media_urls: [v],
      scheduled_time: '2099-01-01T10:00:00Z',
      selected_collaborations: [f.collaboration],
    }),
  },
  'POST /api/payment/topup successUrl': {
    kind: 'navigation',
    body: (v) => ({ topupId: 'starter', successUrl: v, cancelUrl: '/dashboard' }),
  },
  'POST /api/payment/topup cancelUrl': {
    kind: 'navigation',
    body: (v) => ({ topupId: 'starter', successUrl: '/dashboard', cancelUrl: v }),
  },
  'POST /api/payment/subscription/checkout successUrl': { kind: 'navigation', body: (v) => ({ successUrl: v }) },
  'POST /api/payment/subscription/checkout cancelUrl': { kind: 'navigation', body: (v) => ({ cancelUrl: v }) },
  'POST /api/brands/wallet/topup successUrl': {
    kind: 'navigation',
    as: 'brandA',
    body: (v) => ({ amount: 50, successUrl: v }),
  },
  'POST /api/brands/wallet/topup cancelUrl': {
    kind: 'navigation',
    as: 'brandA',
    body: (v) => ({ amount: 50, cancelUrl: v }),
  },
};

/** Generation inputs the server fetches itself (kind server-fetched): fields named like images or URLs. */
const SERVER_FETCHED = [
  'POST /api/ai/generate/image referenceImages',
  'POST /api/ai/generate/image characterImages',
  'POST /api/ai/generate/video characterImages',
  'POST /api/ai/generate/video referenceImages',
  'POST /api/ai/generate/video inputImage',
  'POST /api/ai/generate/video lastFrameImage',
  'POST /api/ai/generate/video character_images',
  'POST /api/ai/generate/video product_images',
  'POST /api/topaz/enhance videoUrl',
  'POST /api/proxy/enhancor/{kind}/queue img_url',
  'POST /api/ai/generate-video-sequence imageUrl',
  'POST /api/ai/movie-agent images',
  'POST /api/ai/movie-agent images.[].imageUrl',
  'POST /api/ai/compile-master-video sequenceItems.[].videoUrl',
  'POST /api/nanobana/edit-image imageBuffer',
  'POST /api/nanobana/multi-image-composition imageBuffers',
  'POST /api/nanobana/advanced-composition imageBuffers',
  'POST /api/ai/generate/multi-composition baseImage',
  'POST /api/ai/generate/multi-composition compositionSteps.[].referenceImage',
  'POST /api/ai/generate characterImages',
  'POST /api/ai/generate/multi-reference referenceImages',
  'POST /api/ai/generate/multi-reference referenceImages.[].url',
  'POST /api/ai/generate/inpaint baseImage',
  'POST /api/ai/generate/inpaint maskImage',
  'POST /api/ai/generate/inpaint referenceImage',
  'POST /api/personas/{id}/video product_images',
  'POST /api/personas/{id}/video productImages',
  'POST /api/personas/{id}/ugc-video product_images',
  'POST /api/personas/{id}/image productImages',
  'POST /api/personas/{id}/image product_images',
];

/** Names that match the pattern but hold no URL (counts, sizes, MIME types, enum choices, file names). */
const NOT_URLS = /^(numberOfImages|numImages|sampleImageSize|imageMimeType|imageType|mediaType|referenceImageName)$/;
const URLISH = /url|image|logo|avatar|thumbnail|link|website|media|src|href/i;

/** The values each kind refuses. */
const REFUSED: Record<Exclude<Kind, 'server-fetched'>, string[]> = {
  image: [EXTERNAL, METADATA, JAVASCRIPT, DATA_HTML, DATA_SVG, DATA_PNG],
  'inline-image': [EXTERNAL, METADATA, JAVASCRIPT, DATA_HTML, DATA_SVG],
  link: [JAVASCRIPT, DATA_HTML],
  navigation: [EXTERNAL, METADATA, JAVASCRIPT, DATA_HTML],
  network: [METADATA, JAVASCRIPT, DATA_HTML, DATA_SVG],
};

function urlFieldsOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  const out: string[] = [];
  const walk = (schema: unknown, prefix: string, route: string) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    for (const [name, sub] of Object.entries((s.properties as Record<string, unknown>) ?? {})) {
      if (URLISH.test(name) && !NOT_URLS.test(name)) out.push(`${route} ${prefix}${name}`);
      walk(sub, `${prefix}${name}.`, route);
    }
    if (s.items) walk(s.items, `${prefix}[].`, route);
    if (s.additionalProperties) walk(s.additionalProperties, prefix, route);
    for (const list of ['anyOf', 'oneOf', 'allOf'])
      for (const sub of (s[list] as unknown[]) ?? []) walk(sub, prefix, route);
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops as Record<string, Record<string, unknown>>)) {
      const route = `${method.toUpperCase()} ${path}`;
      const content = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
      walk(content?.['application/json']?.schema, '', route);
    }
  }
  return out;
}

const callerOf = (who: UrlField['as']): TestUser => (who === 'brandA' ? cast.brandA : cast.creatorA);

function send(key: string, field: UrlField, value: string) {
  const [method, path] = key.split(' ');
  return t.app.inject({
    method: (field.method ?? method) as InjectOptions['method'],
    url: field.url?.(fx) ?? path,
    headers: authHeader(callerOf(field.as).token),
    payload: field.body?.(value, fx) as InjectOptions['payload'],
  });
}

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.ctx);
  fx = await createFixture(t.ctx, cast);
  const png = await solidPng(16, 16, '#22aa66');
  const [a, b] = await Promise.all([
    storeUpload(t.ctx, cast.creatorA.id, png, 'image/png', 'png'),
    storeUpload(t.ctx, cast.brandA.id, png, 'image/png', 'png'),
  ]);
  own = { creatorA: a.url, brandA: b.url };
  // Creator A posts for its collaboration on a connected (sandbox) account.
  await t.ctx.db.insert(socialAccounts).values({
    userId: cast.creatorA.id,
    platform: 'instagram',
    mode: 'sandbox',
    username: 'creator-a',
    accessTokenSealed: 'v1.x.y.z',
  });
});

afterAll(async () => {
  await t?.close();
});

describe('URL fields a browser loads', () => {
  it('every URL-ish input field of the OpenAPI document is classified here', () => {
    const found = urlFieldsOf(t.app.swagger() as { paths: Record<string, Record<string, unknown>> });
    expect(found.length).toBeGreaterThan(40);
    const known = new Set([...Object.keys(FIELDS), ...SERVER_FETCHED]);
    expect(
      found.filter((f) => !known.has(f)),
      'classify these in browser-loaded-urls.int.test.ts',
    ).toEqual([]);
    const stale = [...known].filter((k) => !found.includes(k));
    expect(stale, 'no longer fields of the OpenAPI document').toEqual([]);
  });

  it('an external URL, a metadata address, javascript: and data: URLs are refused wherever a page would load them', async () => {
    const accepted: string[] = [];
    for (const [key, field] of Object.entries(FIELDS)) {
      if (field.kind === 'server-fetched') continue;
      for (const value of REFUSED[field.kind]) {
        const res = await send(key, field, value);
        const body = res.json() as { success?: boolean; error?: unknown };
        if (res.statusCode !== 400 || body.success !== false || typeof body.error !== 'string') {
          accepted.push(`${key} = ${value.slice(0, 40)}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  it('the same requests with an acceptable value succeed (the refusals are about the URL)', async () => {
    const failures: string[] = [];
    for (const [key, field] of Object.entries(FIELDS)) {
      const value = field.control?.(fx) ?? (field.kind === 'network' ? EXTERNAL : undefined);
      if (value === undefined) continue;
      const res = await send(key, field, value);
      if (res.statusCode >= 300) failures.push(`${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('the avatar (JSON) and the logo (JSON) of POST /api/users/avatar and /api/brands/logo take only own images', async () => {
    for (const [url, who, field] of [
      ['/api/users/avatar', cast.creatorA, 'avatarUrl'],
      ['/api/brands/logo', cast.brandA, 'logoUrl'],
    ] as const) {
      for (const value of [EXTERNAL, METADATA, JAVASCRIPT, DATA_HTML, DATA_PNG]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: authHeader(who.token),
          payload: { [field]: value },
        });
        expect(res.statusCode, `${url} ${value}`).toBe(400);
      }
    }
  });
});

describe('the brand logo', () => {
  const patchLogo = (who: TestUser, logoUrl: string | null) =>
    t.app.inject({ method: 'PATCH', url: '/api/brands/profile', headers: authHeader(who.token), payload: { logoUrl } });
  const storedLogo = async (id: string) =>
    (
      await t.ctx.db.select({ logoUrl: brandProfiles.logoUrl }).from(brandProfiles).where(eq(brandProfiles.userId, id))
    )[0]?.logoUrl ?? null;

  it('an external tracking pixel or a metadata address → 400 with a message, and nothing is stored', async () => {
    const before = await storedLogo(cast.brandB.id);
    for (const value of [EXTERNAL, METADATA, 'http://[fd00::1]/x.png', '//tracker.example/p.gif']) {
      const res = await patchLogo(cast.brandB, value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: MESSAGES.account.logoOwnMediaOnly });
    }
    expect(await storedLogo(cast.brandB.id)).toBe(before);
  });

  it("another user's file → refused, also when it is public (someone else's avatar or logo)", async () => {
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/users/avatar',
      headers: authHeader(cast.creatorB.token),
      payload: {
        avatarUrl: (await storeUpload(t.ctx, cast.creatorB.id, await solidPng(8, 8, '#111'), 'image/png', 'png')).url,
      },
    });
    expect(avatar.statusCode).toBe(200);
    const publicAvatar = avatar.json().data.avatarUrl as string;
    for (const value of [fx.mediaUrl, fx.callerImageUrl, publicAvatar]) {
      const res = await patchLogo(cast.brandB, value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: MESSAGES.assets.notYourMedia });
    }
  });

  it('its own uploaded image → 200: stored as a public WebP that creators load, on its profile, brand card and campaigns', async () => {
    const res = await patchLogo(cast.brandA, own.brandA);
    expect(res.statusCode, res.body).toBe(200);
    const logoUrl = res.json().data.logoUrl as string;
    expect(logoUrl).toMatch(/^\/api\/images\/.+\.webp$/);
    expect(logoUrl).not.toBe(own.brandA);
    // Any other signed-in user's browser (a creator) loads it.
    const image = await t.app.inject({ method: 'GET', url: logoUrl, headers: authHeader(cast.creatorB.token) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    // Shown on the brand's campaigns (brandLogo) to creators.
    const campaign = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${fx.openCampaign}`,
      headers: authHeader(cast.creatorB.token),
    });
    expect(campaign.json().data.brandLogo).toContain(logoUrl);
    // Sending the same URL back keeps it; a multipart upload replaces it; null removes it.
    expect((await patchLogo(cast.brandA, logoUrl)).json().data.logoUrl).toBe(logoUrl);
    const form = multipart(
      {},
      { filename: 'logo.png', contentType: 'image/png', data: await solidPng(600, 300, '#f80') },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/brands/logo',
      headers: { ...authHeader(cast.brandA.token), ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const replaced = upload.json().data.logoUrl as string;
    expect(replaced).not.toBe(logoUrl);
    expect(
      (await t.app.inject({ method: 'GET', url: logoUrl, headers: authHeader(cast.brandA.token) })).statusCode,
    ).toBe(404);
    expect((await patchLogo(cast.brandA, null)).json().data.logoUrl).toBeNull();
  });

  it('a logo stored as an external URL before this fix is no longer shown anywhere', async () => {
    await t.ctx.db
      .insert(brandProfiles)
      .values({ userId: cast.brandB.id, logoUrl: EXTERNAL })
      .onConflictDoUpdate({ target: brandProfiles.userId, set: { logoUrl: EXTERNAL } });
    const [running] = await t.ctx.db
      .insert(campaigns)
      .values({ brandUserId: cast.brandB.id, title: 'B', objective: 'O', budgetCents: 100, status: 'running' })
      .returning();
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/brands/profile',
      headers: authHeader(cast.brandB.token),
    });
    expect(profile.json().data.logoUrl).toBeNull();
    const campaign = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${running.id}`,
      headers: authHeader(cast.creatorA.token),
    });
    expect(campaign.body).not.toContain('tracker.example');
    const brands = await t.app.inject({ method: 'GET', url: '/api/brands', headers: authHeader(cast.creatorA.token) });
    expect(brands.body).not.toContain('tracker.example');
  });
});

describe("the pages' Content-Security-Policy", () => {
  it('img-src has no wildcard, no https: and names the studio and its media origin', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/social/sandbox/instagram/posts/00000000-0000-4000-8000-000000000000',
    });
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
    const media = new URL(t.config.publicUrl).origin;
    for (const name of ['img-src', 'media-src']) {
      const sources = directive(name).split(' ').slice(1);
      expect(sources, name).toEqual(["'self'", media, 'data:', 'blob:']);
      expect(sources.some((s) => s === '*' || s.includes('*') || s === 'https:' || s === 'http:')).toBe(false);
    }
  });
});
