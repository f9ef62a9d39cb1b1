import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CalendarDay, PublishResult, ScheduledPost, SocialAccount } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  campaignMaterials,
  campaigns,
  collaborations,
  sandboxGrants,
  sandboxPosts,
  socialAccounts,
  socialOauthStates,
  socialPosts,
  tasks,
} from '../../db/schema/index.ts';
import { STUDIO_JOBS } from '../../jobs.ts';
import { sha256 } from '../../platform/auth/crypto.ts';
import { ManualClock } from '../../platform/clock.ts';
import { JobQueue } from '../../platform/jobs/queue.ts';
import { signMediaUrl, signPostMediaUrl } from '../../platform/media/signing.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { authHeader, createTestUser, eventually, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { purgeUser } from '../account/delete-account.ts';
import { createAsset } from '../assets/service.ts';
import { collaborationProgress } from '../campaigns/progress.ts';
import { unseal } from '../security/secret-box.ts';
import { dispatchDuePosts } from './scheduled-posts.ts';
import { pathOf, submitConsent } from './testing.ts';

const M = MESSAGES.social;
const START = new Date('2026-03-01T12:00:00Z');
let t: TestApp;
let clock: ManualClock;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function api(method: Method, url: string, token: string | null, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

const CONNECT_COOKIE = 'genpro_social_connect';
const sessionCookie = (user: TestUser) => `genpro_session=${user.token}`;

/** POST connect/{platform}: the authorization URL and the connect cookie it set, as `name=value`. */
async function startConnect(user: TestUser, platform: string) {
  const started = await api('POST', `/api/social/connect/${platform}`, user.token);
  expect(started.statusCode, started.body).toBe(200);
  const setCookie = [started.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${CONNECT_COOKIE}=`));
  expect(setCookie).toBeDefined();
  return {
    authUrl: (started.json() as { authUrl: string }).authUrl,
    setCookie: setCookie as string,
    connectCookie: (setCookie as string).split(';')[0] as string,
  };
}

/** The sandbox consent page in `user`'s browser, approved or denied: the callback URL it redirects to. */
async function consentAs(user: TestUser, platform: string, authUrl: string, decision: 'approve' | 'deny') {
  const { consent, answered } = await submitConsent(t, sessionCookie(user), platform, authUrl, decision);
  expect(consent.statusCode, consent.body).toBe(200);
  expect(answered.statusCode, answered.body).toBe(303);
  return pathOf(String(answered.headers.location));
}

/** The OAuth callback as a browser opens it, with the cookies it has. */
function openCallback(url: string, cookies: string[]) {
  return t.app.inject({ method: 'GET', url, headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
}

/** Runs the sandbox consent flow end to end in the user's browser: connect → consent page → Approve → callback. */
async function connect(user: TestUser, platform = 'instagram', decision: 'approve' | 'deny' = 'approve') {
  const { authUrl, connectCookie } = await startConnect(user, platform);
  const callbackUrl = await consentAs(user, platform, authUrl, decision);
  const callback = await openCallback(callbackUrl, [sessionCookie(user), connectCookie]);
  return { callback, callbackUrl, connectCookie };
}

async function accounts(user: TestUser): Promise<SocialAccount[]> {
  return ((await api('GET', '/api/social/accounts', user.token)).json() as { data: { accounts: SocialAccount[] } }).data
    .accounts;
}

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await createTestApp({ clock, env: { SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600' } });
});
afterAll(async () => {
  await t?.close();
});

describe('social accounts', () => {
  it('connects a sandbox account through the consent page and stores its tokens sealed', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    expect((await api('GET', '/api/social/accounts', null)).statusCode).toBe(401);
    expect((await accounts(user)).every((a) => a.status === 'disconnected' && !a.isConnected)).toBe(true);

    const { callback, callbackUrl, connectCookie } = await connect(user, 'instagram');
    expect(callback.statusCode, callback.body).toBe(200);
    expect(callback.body).toContain(M.connectedCloseTab);
    expect(callback.body).toContain('window.close()');
    // The state is single-use.
    const replay = await openCallback(callbackUrl, [sessionCookie(user), connectCookie]);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain(M.connectExpired);

    const instagram = (await accounts(user)).find((a) => a.platform === 'instagram');
    expect(instagram).toMatchObject({
      id: 'instagram',
      status: 'connected',
      isConnected: true,
      mode: 'sandbox',
      username: 'test.user',
    });
    const [row] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id));
    expect(row?.accessTokenSealed.startsWith('v1.')).toBe(true);
    expect(row?.refreshTokenSealed?.startsWith('v1.')).toBe(true);

    // Disconnect: platform in the query or the body.
    expect((await api('DELETE', '/api/social/accounts?platform=instagram', user.token)).statusCode).toBe(200);
    expect((await accounts(user)).find((a) => a.platform === 'instagram')?.status).toBe('disconnected');
    await connect(user, 'tiktok');
    expect((await api('DELETE', '/api/social/accounts', user.token, { platform: 'tiktok' })).statusCode).toBe(200);
    expect((await accounts(user)).every((a) => !a.isConnected)).toBe(true);
  });

  it('a denied consent connects nothing; a consent form from another session is refused', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const { callback } = await connect(user, 'youtube', 'deny');
    expect(callback.statusCode).toBe(400);
    expect(callback.body).toContain(M.connectDenied);
    expect((await accounts(user)).every((a) => !a.isConnected)).toBe(true);

    const forged = await t.app.inject({
      method: 'POST',
      url: '/social/sandbox/youtube/authorize',
      headers: { cookie: `genpro_session=${user.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        redirect_uri: `${t.config.publicUrl}/api/social/oauth/youtube`,
        state: 'someone-elses-state',
        code_challenge: 'x'.repeat(43),
        consent: 'forged',
        decision: 'approve',
      }).toString(),
    });
    expect(forged.statusCode).toBe(403);
  });
});

describe('connect flow bound to the browser that started it (issue 17)', () => {
  const stateOf = (callbackUrl: string) => new URL(callbackUrl, 'http://studio').searchParams.get('state') as string;
  const codeOf = (callbackUrl: string) => new URL(callbackUrl, 'http://studio').searchParams.get('code') as string;
  const accountRows = (users: TestUser[]) =>
    t.ctx.db
      .select()
      .from(socialAccounts)
      .where(
        inArray(
          socialAccounts.userId,
          users.map((u) => u.id),
        ),
      );
  const stateRows = (state: string) =>
    t.ctx.db.select().from(socialOauthStates).where(eq(socialOauthStates.state, state));

  it('the starting browser gets a short-lived HttpOnly, SameSite=Lax nonce cookie scoped to the callback; with it the flow connects and the cookie is cleared', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const { authUrl, setCookie, connectCookie } = await startConnect(user, 'linkedin');
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toContain('; Path=/api/social/oauth/linkedin');
    expect(setCookie).toContain('; Max-Age=600');
    expect(setCookie).not.toMatch(/; Secure/i); // PUBLIC_URL is http here; the live connectors' test checks https
    const nonce = connectCookie.slice(`${CONNECT_COOKIE}=`.length);
    expect(nonce.length).toBeGreaterThanOrEqual(43);
    // Only the nonce's hash is stored with the state.
    const [pending] = await stateRows(new URL(authUrl).searchParams.get('state') as string);
    expect(pending?.browserNonceHash).toBe(sha256(nonce));
    expect(JSON.stringify(pending)).not.toContain(nonce);

    const callbackUrl = await consentAs(user, 'linkedin', authUrl, 'approve');
    const callback = await openCallback(callbackUrl, [sessionCookie(user), connectCookie]);
    expect(callback.statusCode, callback.body).toBe(200);
    expect(callback.body).toContain(M.connectedCloseTab);
    const cleared = [callback.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${CONNECT_COOKIE}=`));
    expect(cleared).toMatch(/^genpro_social_connect=;/);
    expect(cleared).toContain('Path=/api/social/oauth/linkedin');
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect((await accounts(user)).find((a) => a.platform === 'linkedin')?.status).toBe('connected');
    expect(await stateRows(stateOf(callbackUrl))).toEqual([]);
  });

  it("refuses a victim who finishes an attacker's connect link: nothing connected for either user, the state consumed", async () => {
    const attacker = await createTestUser(t.ctx.db, { role: 'creator' });
    const victim = await createTestUser(t.ctx.db, { role: 'creator' });
    const attack = await startConnect(attacker, 'twitter');
    // The victim even has a connect cookie of their own for the platform: it is not the attacker's flow's.
    const victimsOwn = await startConnect(victim, 'twitter');
    const callbackUrl = await consentAs(victim, 'twitter', attack.authUrl, 'approve');
    expect(codeOf(callbackUrl)).toBeTruthy();

    const refused = await openCallback(callbackUrl, [sessionCookie(victim), victimsOwn.connectCookie]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('data-ok="false"');
    expect(refused.body).toContain(M.connectOtherBrowser);
    expect(refused.body).not.toContain('window.close()');
    expect(String(refused.headers['set-cookie'])).toMatch(/^genpro_social_connect=;/);
    expect(await stateRows(stateOf(callbackUrl))).toEqual([]);
    // The attacker cannot finish it afterwards either, even with the right cookie: the state is gone.
    const late = await openCallback(callbackUrl, [attack.connectCookie]);
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(M.connectExpired);

    // The same without any cookie (a victim not signed in to the studio): refused as well.
    const again = await startConnect(attacker, 'twitter');
    const secondUrl = await consentAs(victim, 'twitter', again.authUrl, 'approve');
    const bare = await openCallback(secondUrl, []);
    expect(bare.statusCode).toBe(400);
    expect(bare.body).toContain(M.connectOtherBrowser);
    expect(await stateRows(stateOf(secondUrl))).toEqual([]);

    expect(await accountRows([attacker, victim])).toEqual([]);
    expect((await accounts(attacker)).every((a) => !a.isConnected)).toBe(true);
    expect((await accounts(victim)).every((a) => !a.isConnected)).toBe(true);
  });

  it('refuses a callback with the right cookie while the browser is signed in as another user', async () => {
    const starter = await createTestUser(t.ctx.db, { role: 'brand' });
    const other = await createTestUser(t.ctx.db, { role: 'brand' });
    const { authUrl, connectCookie } = await startConnect(starter, 'facebook');
    const callbackUrl = await consentAs(starter, 'facebook', authUrl, 'approve');

    const refused = await openCallback(callbackUrl, [sessionCookie(other), connectCookie]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(M.connectOtherAccount);
    expect(String(refused.headers['set-cookie'])).toMatch(/^genpro_social_connect=;/);
    expect(await stateRows(stateOf(callbackUrl))).toEqual([]);
    expect(await accountRows([starter, other])).toEqual([]);
  });

  it('never logs the state, the nonce, the code or the tokens of a flow, refused, failed or connected', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const other = await createTestUser(t.ctx.db, { role: 'brand' });
    const logged: string[] = [];
    const asText = (args: unknown[]) =>
      JSON.stringify(args, (_key, value) =>
        value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
      );
    const spies = (['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const).map((level) =>
      vi.spyOn(t.ctx.log, level).mockImplementation(((...args: unknown[]) => {
        logged.push(asText(args));
      }) as never),
    );
    const secrets: string[] = [];
    const remember = (callbackUrl: string, connectCookie: string) =>
      secrets.push(stateOf(callbackUrl), codeOf(callbackUrl), connectCookie.split('=')[1] as string);
    try {
      // Refused: another browser, another account.
      const a = await startConnect(user, 'tiktok');
      const aUrl = await consentAs(other, 'tiktok', a.authUrl, 'approve');
      remember(aUrl, a.connectCookie);
      expect((await openCallback(aUrl, [sessionCookie(other)])).statusCode).toBe(400);
      const b = await startConnect(user, 'tiktok');
      const bUrl = await consentAs(user, 'tiktok', b.authUrl, 'approve');
      remember(bUrl, b.connectCookie);
      expect((await openCallback(bUrl, [sessionCookie(other), b.connectCookie])).statusCode).toBe(400);
      // Failed: a code the network does not know (the exchange is refused).
      const c = await startConnect(user, 'tiktok');
      const cUrl = await consentAs(user, 'tiktok', c.authUrl, 'approve');
      const forged = cUrl.replace(/code=[^&]+/, 'code=forged-code-0123456789abcdef');
      remember(forged, c.connectCookie);
      const failed = await openCallback(forged, [sessionCookie(user), c.connectCookie]);
      expect(failed.body).toContain(M.connectFailed);
      // Connected.
      const d = await connect(user, 'tiktok');
      expect(d.callback.statusCode).toBe(200);
      remember(d.callbackUrl, d.connectCookie);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const [row] = await accountRows([user]);
    secrets.push(unseal(t.config, 'social-token', row?.accessTokenSealed as string));
    secrets.push(unseal(t.config, 'social-token', row?.refreshTokenSealed as string));
    expect(logged.some((l) => l.includes('social connect refused'))).toBe(true);
    expect(logged.some((l) => l.includes('social connect failed'))).toBe(true);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      for (const line of logged) expect(line).not.toContain(secret);
    }
  });
});

describe('publish', () => {
  it('applies the spec rules with their messages', async () => {
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const body = { message: 'New drop', platforms: ['facebook'] };
    expect((await api('POST', '/api/social/publish', null, body)).statusCode).toBe(401);
    const none = await api('POST', '/api/social/publish', creator.token, body);
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('No social media accounts connected. Please connect at least one platform first.');

    await connect(creator, 'facebook');
    const notConnected = await api('POST', '/api/social/publish', creator.token, { ...body, platforms: ['twitter'] });
    expect(notConnected.json().error).toBe(M.platformNotConnected('X (Twitter)'));

    const zero = await api('POST', '/api/social/publish', creator.token, body);
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error).toBe(
      'Please select exactly one active collaboration to post content for. This helps track your campaign deliverables and ensure proper attribution.',
    );
    const two = await api('POST', '/api/social/publish', creator.token, {
      ...body,
      selected_collaborations: [crypto.randomUUID(), crypto.randomUUID()],
    });
    expect(two.json().error).toBe(M.selectOneCollaboration);
    const inactive = await api('POST', '/api/social/publish', creator.token, {
      ...body,
      collaboration_id: crypto.randomUUID(),
    });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error).toBe(
      'Selected collaboration is no longer active. Please select a different collaboration.',
    );
    expect(M.collaborationCheckFailed).toBe('Could not validate collaboration. Please try again.');

    // AI Materials: no collaboration needed.
    const materials = await api('POST', '/api/social/publish', creator.token, { ...body, mode: 'materials' });
    expect(materials.statusCode, materials.body).toBe(200);
    expect((materials.json() as { data: { results: PublishResult[] } }).data.results[0]?.status).toBe('published');
  });

  it('publishes for a collaboration; the share page counts views into the campaign metrics', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const [campaign] = await t.ctx.db
      .insert(campaigns)
      .values({
        brandUserId: brand.id,
        title: 'Launch',
        objective: 'Awareness',
        status: 'running',
        budgetCents: 10_000,
      })
      .returning();
    const deliverables = [
      { type: 'Instagram posts', quantity: 2, platform: 'instagram' as const, contentType: 'image' as const },
      { type: 'TikTok video', quantity: 1, platform: 'tiktok' as const, contentType: 'video' as const },
    ];
    const [collab] = await t.ctx.db
      .insert(collaborations)
      .values({ campaignId: campaign?.id as string, creatorUserId: creator.id, agreedCents: 5000, deliverables })
      .returning();
    const collaborationId = collab?.id as string;
    await connect(creator, 'instagram');
    await connect(creator, 'twitter');

    const res = await api('POST', '/api/social/publish', creator.token, {
      message: 'Our spring shoe <b>is here</b>',
      platforms: ['instagram', 'twitter'],
      media_urls: ['https://cdn.example.com/shoe.jpg'],
      selected_collaborations: [collaborationId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(results.map((r) => [r.platform, r.status]).sort()).toEqual([
      ['instagram', 'published'],
      ['twitter', 'published'],
    ]);
    const share = results.find((r) => r.platform === 'instagram')?.share_url as string;
    expect(share).toMatch(/\/social\/sandbox\/instagram\/posts\/[0-9a-f-]{36}$/);

    // Public page, no session; each visitor's first view of the day counts; user text is escaped.
    for (const n of [1, 2, 3]) {
      const page = await t.app.inject({
        method: 'GET',
        url: pathOf(share),
        headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Firefox/13${n}.0` },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Our spring shoe &#60;b&#62;is here&#60;/b&#62;');
      expect(page.body).toContain(`<span data-testid="post-views">${n}</span>`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/social/sandbox/instagram/posts/nope' })).statusCode).toBe(404);

    const progress = (await collaborationProgress(t.ctx, [{ id: collaborationId, deliverables }])).get(collaborationId);
    // The Instagram post reports 0 likes once viewed (the sandbox has no comments or shares).
    expect(progress?.performance_metrics).toEqual({
      total_views: 3,
      total_engagement: 0,
      avg_engagement_rate: 0,
      total_posts: 2,
    });
    // The image post fills one of 2 Instagram posts; the TikTok deliverable wants video, the post is an image.
    expect(progress?.deliverables.map((d) => d.completed)).toEqual([1, 0]);
    expect(progress?.progress).toEqual({ completed: 1, total: 3, percent: 33 });

    // The creator's my-active list shows the same.
    const active = await api('GET', '/api/collaborations/my-active', creator.token);
    expect(active.json().data[0].performance_metrics.total_posts).toBe(2);
  });

  it('a token the network no longer accepts fails the post and marks the account', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(brand, 'linkedin');
    // The network revokes the grant (as a user removing the app would): access and refresh are refused.
    await t.ctx.db
      .update(sandboxGrants)
      .set({ accessTokenHash: null, refreshTokenHash: null })
      .where(eq(sandboxGrants.userId, brand.id));
    const res = await api('POST', '/api/social/publish', brand.token, { message: 'Hello', platforms: ['linkedin'] });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(result).toMatchObject({ platform: 'linkedin', status: 'failed', share_url: null, error: M.tokenExpired });
    const youtube = (await accounts(brand)).find((a) => a.platform === 'linkedin');
    expect(youtube).toMatchObject({ status: 'error', error_message: M.tokenExpired, isConnected: true });
    const all = (await api('GET', '/api/social/scheduled-posts?filter=all', brand.token)).json()
      .data as ScheduledPost[];
    expect(all[0]).toMatchObject({ status: 'failed', error_message: M.tokenExpired });
  });

  it('brands publish materials only', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(brand, 'facebook');
    const res = await api('POST', '/api/social/publish', brand.token, {
      message: 'Hello',
      platforms: ['facebook'],
      collaboration_id: crypto.randomUUID(),
    });
    expect(res.statusCode).toBe(403);
    const ok = await api('POST', '/api/social/publish', brand.token, { message: 'Hello', platforms: ['facebook'] });
    expect((ok.json() as { data: { results: PublishResult[] } }).data.results[0]?.status).toBe('published');
  });
});

describe('scheduled posts', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(user, 'facebook');
    await connect(user, 'linkedin');
  });

  /** Schedules `message` on Facebook `inMinutes` from the test clock's now; the post's id. */
  async function scheduleFacebookPost(message: string, inMinutes: number): Promise<string> {
    const created = await api('POST', '/api/social/scheduled-posts', user.token, {
      message,
      scheduled_time: new Date(clock.now().getTime() + inMinutes * 60_000).toISOString(),
      platforms: ['facebook'],
    });
    expect(created.statusCode, created.body).toBe(200);
    return (created.json() as { data: ScheduledPost[] }).data[0]?.id as string;
  }

  /** The job queues of `count` other processes with workers (all task kinds and sweeps) on this database. */
  async function startWorkerProcesses(count: number): Promise<JobQueue[]> {
    const queues = Array.from({ length: count }, () => {
      const queue = new JobQueue({ database: t.ctx.database, log: t.ctx.log, clock, kinds: STUDIO_JOBS });
      queue.attach({ ...t.ctx, config: { ...t.ctx.config, RUN_WORKERS: true }, jobs: queue });
      return queue;
    });
    await Promise.all(queues.map((queue) => queue.start()));
    return queues;
  }

  const published = (id: string) =>
    eventually(
      async () => {
        const [row] = await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.id, id));
        return row?.status === 'published' ? row : undefined;
      },
      { what: 'the post to be published' },
    );

  it('applies the publish rule to creators scheduling: exactly one active collaboration, or AI Materials (issue 21)', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    await connect(creator, 'facebook');
    const [campaign] = await t.ctx.db
      .insert(campaigns)
      .values({
        brandUserId: brand.id,
        title: 'Spring',
        objective: 'Awareness',
        status: 'running',
        budgetCents: 10_000,
      })
      .returning();
    const [collab] = await t.ctx.db
      .insert(collaborations)
      .values({ campaignId: campaign?.id as string, creatorUserId: creator.id, agreedCents: 5000, deliverables: [] })
      .returning();
    const body = {
      message: 'Tomorrow',
      scheduled_time: new Date(clock.now().getTime() + 60 * 60_000).toISOString(),
      platforms: ['facebook'],
    };
    const schedule = (extra: object) =>
      api('POST', '/api/social/scheduled-posts', creator.token, { ...body, ...extra });
    const stored = async () =>
      (await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, creator.id))).length;

    // For a campaign (the default): none or two is the spec's message, and nothing is scheduled.
    for (const extra of [{}, { mode: 'campaigns' }, { selected_collaborations: [collab?.id, crypto.randomUUID()] }]) {
      const res = await schedule(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error).toBe(
        'Please select exactly one active collaboration to post content for. This helps track your campaign deliverables and ensure proper attribution.',
      );
    }
    const inactive = await schedule({ collaboration_id: crypto.randomUUID() });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error).toBe(
      'Selected collaboration is no longer active. Please select a different collaboration.',
    );
    expect(await stored()).toBe(0);

    // One active collaboration, by either field: scheduled for it.
    for (const extra of [{ collaboration_id: collab?.id }, { selected_collaborations: [collab?.id] }]) {
      const res = await schedule(extra);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json().data as ScheduledPost[])[0]?.collaboration_id).toBe(collab?.id);
    }
    // AI Materials: no collaboration needed.
    const materials = await schedule({ mode: 'materials' });
    expect(materials.statusCode, materials.body).toBe(200);
    expect((materials.json().data as ScheduledPost[])[0]?.collaboration_id).toBeNull();
    expect(await stored()).toBe(3);
    // Cancelled, so the shared clock's later dispatches do not publish them.
    for (const row of await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, creator.id))) {
      expect((await api('DELETE', `/api/social/scheduled-posts?id=${row.id}`, creator.token)).statusCode).toBe(200);
    }
  });

  it('validates, lists, edits, reschedules and publishes at the due time (controlled clock)', async () => {
    const at = new Date(clock.now().getTime() + 60 * 60_000);
    expect(
      (
        await api('POST', '/api/social/scheduled-posts', user.token, {
          message: 'Past',
          scheduled_time: new Date(clock.now().getTime() - 60_000).toISOString(),
          platforms: ['facebook'],
        })
      ).json().error,
    ).toBe('Please select a future date and time');
    expect(
      (
        await api('POST', '/api/social/scheduled-posts', user.token, {
          message: ' ',
          scheduled_time: at.toISOString(),
          platforms: ['facebook'],
        })
      ).statusCode,
    ).toBe(400);

    const created = await api('POST', '/api/social/scheduled-posts', user.token, {
      message: 'Launch day',
      media_urls: [],
      scheduled_time: at.toISOString(),
      timezone: 'Europe/Paris',
      platforms: ['facebook', 'linkedin'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const posts = (created.json() as { data: ScheduledPost[] }).data;
    expect(posts.map((p) => p.platform).sort()).toEqual(['facebook', 'linkedin']);
    expect(posts[0]).toMatchObject({
      status: 'scheduled',
      timezone: 'Europe/Paris',
      scheduled_time: at.toISOString(),
      share_url: null,
    });
    const [post, other] = posts as [ScheduledPost, ScheduledPost];

    const upcoming = (await api('GET', '/api/social/scheduled-posts?filter=upcoming', user.token)).json()
      .data as ScheduledPost[];
    expect(upcoming.map((p) => p.id).sort()).toEqual([post.id, other.id].sort());

    // Edit: blank or unchanged ignored.
    expect(
      (await api('PUT', '/api/social/scheduled-posts', user.token, { id: post.id, message: '  ' })).json().data.message,
    ).toBe('Launch day');
    expect(
      (await api('PUT', '/api/social/scheduled-posts', user.token, { id: post.id, message: 'Launch day!' })).json().data
        .message,
    ).toBe('Launch day!');
    // Reschedule (wall time in the zone), the spec's alert for the past.
    const past = await api('PUT', '/api/social/scheduled-posts', user.token, {
      id: post.id,
      scheduled_time: '2026-02-01 10:00',
      timezone: 'UTC',
    });
    expect(past.json().error).toBe('Please enter a valid future date and time');
    const moved = await api('PUT', '/api/social/scheduled-posts', user.token, {
      id: post.id,
      scheduled_time: '2026-03-01 15:00',
      timezone: 'Europe/Paris',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.scheduled_time).toBe('2026-03-01T14:00:00.000Z');
    // The calendar's drag sends an instant (ISO with Z) and keeps the post's zone: the past is refused the same way,
    // and the stored time stays as it was.
    const draggedBack = await api('PUT', '/api/social/scheduled-posts', user.token, {
      id: post.id,
      scheduled_time: new Date(clock.now().getTime() - 30 * 60_000).toISOString(),
      timezone: 'Europe/Paris',
    });
    expect(draggedBack.statusCode).toBe(400);
    expect(draggedBack.json().error).toBe('Please enter a valid future date and time');
    const dragged = await api('PUT', '/api/social/scheduled-posts', user.token, {
      id: post.id,
      scheduled_time: '2026-03-02T09:45:00.000Z',
      timezone: 'Europe/Paris',
    });
    expect(dragged.json().data).toMatchObject({ scheduled_time: '2026-03-02T09:45:00.000Z', timezone: 'Europe/Paris' });
    const back = await api('PUT', '/api/social/scheduled-posts', user.token, {
      id: post.id,
      scheduled_time: '2026-03-01 15:00',
      timezone: 'Europe/Paris',
    });
    expect(back.json().data.scheduled_time).toBe('2026-03-01T14:00:00.000Z');
    // Another user's post is not found.
    const stranger = await createTestUser(t.ctx.db);
    expect(
      (await api('PUT', '/api/social/scheduled-posts', stranger.token, { id: post.id, message: 'x' })).statusCode,
    ).toBe(404);

    // 13:00: the other post is due, the moved one is not.
    expect(await dispatchDuePosts(t.ctx)).toBe(0);
    clock.advance(61 * 60_000);
    expect(await dispatchDuePosts(t.ctx)).toBe(1);
    const otherDone = await published(other.id);
    expect(otherDone.shareUrl).toContain('/social/sandbox/linkedin/posts/');
    expect((await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.id, post.id)))[0]?.status).toBe('scheduled');
    // A published post cannot be changed.
    expect((await api('DELETE', `/api/social/scheduled-posts?id=${other.id}`, user.token)).statusCode).toBe(409);

    clock.advance(60 * 60_000);
    // Two dispatchers at once (two processes): handed over exactly once.
    const counts = await Promise.all([dispatchDuePosts(t.ctx), dispatchDuePosts(t.ctx)]);
    expect(counts[0] + counts[1]).toBe(1);
    const done = await published(post.id);
    expect(done.message).toBe('Launch day!');
    const sandbox = await t.ctx.db.select().from(sandboxPosts).where(eq(sandboxPosts.idempotencyKey, post.id));
    expect(sandbox).toHaveLength(1);
    expect(await dispatchDuePosts(t.ctx)).toBe(0);
  });

  it('cancels future posts with DELETE ?id=', async () => {
    const at = new Date(clock.now().getTime() + 30 * 60_000).toISOString();
    const created = await api('POST', '/api/social/scheduled-posts', user.token, {
      message: 'Soon',
      scheduled_time: at,
      platforms: ['facebook'],
    });
    const id = (created.json() as { data: ScheduledPost[] }).data[0]?.id as string;
    const cancelled = await api('DELETE', `/api/social/scheduled-posts?id=${id}`, user.token);
    expect(cancelled.json().data.status).toBe('cancelled');
    expect((await api('DELETE', `/api/social/scheduled-posts?id=${id}`, user.token)).statusCode).toBe(409);
    clock.advance(31 * 60_000);
    expect(await dispatchDuePosts(t.ctx)).toBe(0);
  });

  it('workers that start after the due time publish on start, once', async () => {
    const id = await scheduleFacebookPost('While down', 10);
    clock.advance(3 * 60 * 60_000);
    // Another process's workers start (the next sweep of this one is an hour away).
    const [restarted] = await startWorkerProcesses(1);
    const row = await published(id);
    expect(row.taskId).toBeTruthy();
    await restarted?.stop();
    expect(await dispatchDuePosts(t.ctx)).toBe(0);
    expect(await t.ctx.db.select().from(sandboxPosts).where(eq(sandboxPosts.idempotencyKey, id))).toHaveLength(1);
  });

  it('two more processes with workers on the same database: a due post is handed over and published once', async () => {
    const id = await scheduleFacebookPost('Two schedulers', 10);
    clock.advance(11 * 60_000);
    // Each process's workers sweep at once on start; the scheduler queue runs one sweep at a time.
    const processes = await startWorkerProcesses(2);
    const row = await published(id);
    await Promise.all(processes.map((p) => p.stop()));
    const publishTasks = await t.ctx.db.select().from(tasks).where(eq(tasks.kind, 'social.publish'));
    expect(publishTasks.filter((task) => task.input.postId === id).map((task) => task.id)).toEqual([row.taskId]);
    expect(await t.ctx.db.select().from(sandboxPosts).where(eq(sandboxPosts.idempotencyKey, id))).toHaveLength(1);
  });

  it('buckets calendar days in the requested zone across DST and the date line', async () => {
    const owner = await createTestUser(t.ctx.db, { role: 'brand' });
    const insert = (iso: string, status: 'scheduled' | 'published' | 'failed' | 'cancelled' = 'scheduled') => ({
      userId: owner.id,
      platform: 'instagram',
      message: iso,
      scheduledTime: new Date(iso),
      status,
    });
    await t.ctx.db.insert(socialPosts).values([
      insert('2026-03-08T04:30:00Z'), // 23:30 EST on 7 March; 8 March in UTC
      insert('2026-03-08T06:30:00Z', 'failed'), // 01:30 EST, before the jump
      insert('2026-03-08T07:30:00Z', 'published'), // 03:30 EDT, after the jump
      insert('2026-03-09T03:59:00Z', 'cancelled'), // 23:59 EDT on 8 March
      insert('2026-03-10T11:30:00Z'), // Kiritimati 11 March, Pago Pago 10 March
      insert('2026-06-10T14:30:00Z'), // 23:30 in Tokyo, 10 June
    ]);
    const days = async (start: string, end: string, zone: string) => {
      const res = await api(
        'GET',
        `/api/social/scheduled-posts/calendar?start=${start}&end=${end}&timezone=${encodeURIComponent(zone)}`,
        owner.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { calendar: CalendarDay[] } }).data.calendar;
    };
    const ny = await days('2026-03-07', '2026-03-08', 'America/New_York');
    expect(ny.map((d) => [d.date, d.stats.total])).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 3],
    ]);
    expect(ny[1]?.stats).toEqual({ total: 3, scheduled: 0, published: 1, failed: 1, cancelled: 1 });
    const utc = await days('2026-03-07', '2026-03-09', 'UTC');
    expect(utc.map((d) => [d.date, d.stats.total])).toEqual([
      ['2026-03-08', 3],
      ['2026-03-09', 1],
    ]);
    expect((await days('2026-03-10', '2026-03-11', 'Pacific/Kiritimati')).map((d) => d.date)).toEqual(['2026-03-11']);
    expect((await days('2026-03-10', '2026-03-11', 'Pacific/Pago_Pago')).map((d) => d.date)).toEqual(['2026-03-10']);
    expect((await days('2026-06-10', '2026-06-11', 'Asia/Tokyo')).map((d) => d.date)).toEqual(['2026-06-10']);

    const day = await api('POST', '/api/social/scheduled-posts/calendar', owner.token, {
      date: '2026-03-08',
      timezone: 'America/New_York',
    });
    expect((day.json() as { data: { posts: ScheduledPost[] } }).data.posts.map((p) => p.status)).toEqual([
      'failed',
      'published',
      'cancelled',
    ]);
    expect(
      (
        await api(
          'GET',
          '/api/social/scheduled-posts/calendar?start=2026-03-07&end=2026-03-08&timezone=Mars/Base',
          owner.token,
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('calendar ranges (issue 21)', () => {
  it('says what is wrong with a malformed date, a reversed range or a range too long', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const calendarOf = (query: string) => api('GET', `/api/social/scheduled-posts/calendar?${query}`, user.token);
    for (const [query, error] of [
      ['start=2026-03-10&end=2026-03-01', 'The calendar range ends before it starts: end must be on or after start'],
      ['start=2026-01-01&end=2027-12-31', 'The calendar range is too long: at most 370 days'],
      ['start=2026-02-30&end=2026-03-01', 'start must be a calendar date as YYYY-MM-DD'],
      ['start=2026-03-01&end=tomorrow', 'end must be a calendar date as YYYY-MM-DD'],
      ['start=03/01/2026&end=2026-03-02', 'start must be a calendar date as YYYY-MM-DD'],
    ] as const) {
      const res = await calendarOf(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBe(error);
    }
    const day = await api('POST', '/api/social/scheduled-posts/calendar', user.token, { date: '2026-13-01' });
    expect(day.statusCode).toBe(400);
    expect(day.json().error).toBe('date must be a calendar date as YYYY-MM-DD');
    // One day (start = end) and a full year are fine.
    expect((await calendarOf('start=2026-03-01&end=2026-03-01')).statusCode).toBe(200);
    expect((await calendarOf('start=2026-01-01&end=2026-12-31')).statusCode).toBe(200);
  });
});

describe('media URLs of posts (issue 17)', () => {
  const UNSAFE = [
    'javascript:alert(document.cookie)',
    'file:///etc/passwd',
    'data:image/png;base64,iVBORw0KGgo=',
    'http://127.0.0.1/',
    'http://10.0.0.1/a.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/a.png',
    'http://localhost./a.png',
    'https://user:secret@cdn.example.com/a.png',
    '/etc/passwd',
  ];
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(user, 'facebook');
  });
  const later = () => new Date(clock.now().getTime() + 60 * 60_000).toISOString();

  it('refuses javascript:, file:, data:, private and local addresses with a 400 naming the field, scheduled or published now', async () => {
    for (const url of UNSAFE) {
      const scheduled = await api('POST', '/api/social/scheduled-posts', user.token, {
        message: 'Look',
        media_urls: [url],
        scheduled_time: later(),
        platforms: ['facebook'],
      });
      expect(scheduled.statusCode, url).toBe(400);
      expect(scheduled.json().error, url).toBe(M.mediaUrlInvalid('media_urls'));
      const now = await api('POST', '/api/social/publish', user.token, {
        message: 'Look',
        platforms: ['facebook'],
        media_urls: [url],
      });
      expect(now.statusCode, url).toBe(400);
      expect(now.json().error, url).toBe(M.mediaUrlInvalid('media_urls'));
      const material = await api('POST', '/api/social/publish', user.token, {
        message: 'Look',
        platforms: ['facebook'],
        selected_materials: [url],
      });
      expect(material.statusCode, url).toBe(400);
      expect(material.json().error, url).toBe(M.mediaUrlInvalid('selected_materials'));
    }
    expect(await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, user.id))).toEqual([]);
  });

  it("accepts the studio's own media (path, signed, on PUBLIC_URL) and public URLs; another user's media is 404", async () => {
    const image = await storeUpload(t.ctx, user.id, await solidPng(8, 8, '#3366ff'), 'image/png', 'png');
    const own = [
      image.url,
      signMediaUrl(t.config, image.url),
      `${t.config.publicUrl}${image.url}`,
      'https://cdn.example.com/shoe.png',
    ];
    const scheduled = await api('POST', '/api/social/scheduled-posts', user.token, {
      message: 'Ours',
      media_urls: own,
      scheduled_time: later(),
      platforms: ['facebook'],
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect((scheduled.json() as { data: ScheduledPost[] }).data[0]?.media_urls).toEqual(own);
    const now = await api('POST', '/api/social/publish', user.token, {
      message: 'Ours, now',
      platforms: ['facebook'],
      media_urls: [image.url],
    });
    expect(now.statusCode, now.body).toBe(200);
    expect((now.json() as { data: { results: PublishResult[] } }).data.results[0]?.status).toBe('published');

    const stranger = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(stranger, 'facebook');
    const theirs = await api('POST', '/api/social/publish', stranger.token, {
      message: 'Not mine',
      platforms: ['facebook'],
      media_urls: [image.url],
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('a post stored with an unsafe media URL before the check fails at its due time instead of being published', async () => {
    const [row] = await t.ctx.db
      .insert(socialPosts)
      .values({
        userId: user.id,
        platform: 'facebook',
        message: 'Old row',
        mediaUrls: ['javascript:alert(1)'],
        scheduledTime: new Date(clock.now().getTime() - 60_000),
      })
      .returning();
    await dispatchDuePosts(t.ctx);
    const failed = await eventually(
      async () => {
        const [current] = await t.ctx.db
          .select()
          .from(socialPosts)
          .where(eq(socialPosts.id, row?.id as string));
        return current?.status === 'failed' ? current : undefined;
      },
      { what: 'the post to fail' },
    );
    expect(failed.errorMessage).toBe(M.mediaUrlInvalid('media_urls'));
    expect(
      await t.ctx.db
        .select()
        .from(sandboxPosts)
        .where(eq(sandboxPosts.idempotencyKey, row?.id as string)),
    ).toEqual([]);
  });
});

describe('media of collaboration posts (issue 18)', () => {
  it("a creator posts the campaign's video and their own image for a collaboration; the brand sees them against the deliverables by type", async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const stranger = await createTestUser(t.ctx.db, { role: 'creator' });
    const store = new MediaStore(t.ctx);
    const video = await store.put({
      body: Buffer.from('not really a video'),
      contentType: 'video/mp4',
      ext: 'mp4',
      storageClass: 'upload',
      userId: brand.id,
      source: 'upload',
      probe: null,
    });
    const poster = await storeUpload(t.ctx, brand.id, await solidPng(16, 9, '#aa3355'), 'image/webp', 'webp');
    const asset = await createAsset(t.ctx, {
      userId: brand.id,
      type: 'video',
      key: video.key,
      url: video.url,
      thumbnailKey: poster.key,
    });
    const [campaign] = await t.ctx.db
      .insert(campaigns)
      .values({ brandUserId: brand.id, title: 'Drop', objective: 'Sales', status: 'running', budgetCents: 10_000 })
      .returning();
    const campaignId = campaign?.id as string;
    const [material] = await t.ctx.db
      .insert(campaignMaterials)
      .values({ campaignId, assetId: asset.id, type: 'video', url: video.url, prompt: 'The drop' })
      .returning();
    const deliverables = [
      { type: 'Instagram videos', quantity: 3, platform: 'instagram' as const, contentType: 'video' as const },
      { type: 'Instagram images', quantity: 2, platform: 'instagram' as const, contentType: 'image' as const },
    ];
    const [collab] = await t.ctx.db
      .insert(collaborations)
      .values({ campaignId, creatorUserId: creator.id, agreedCents: 5000, deliverables })
      .returning();
    const collaborationId = collab?.id as string;
    await connect(creator, 'instagram');
    await connect(stranger, 'instagram');

    // The material comes with its thumbnail, signed for every viewer of the campaign.
    const assetsReply = await api('GET', `/api/campaigns/${campaignId}/assets`, creator.token);
    expect(assetsReply.statusCode, assetsReply.body).toBe(200);
    const [listed] = assetsReply.json().data.assets as Array<{ id: string; url: string; thumbnail_url: string | null }>;
    expect(listed?.id).toBe(material?.id);
    expect(listed?.thumbnail_url).toMatch(new RegExp(`^/api/images/${poster.key}\\?expires=\\d+&sig=`));

    // Publish now for the collaboration: the campaign's video by its material id.
    const now = await api('POST', '/api/social/publish', creator.token, {
      message: 'The drop, on video',
      platforms: ['instagram'],
      collaboration_id: collaborationId,
      selected_materials: [material?.id],
    });
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json().data.results[0].status).toBe('published');
    const [videoPost] = (await api('GET', '/api/social/scheduled-posts?filter=all', creator.token)).json()
      .data as ScheduledPost[];
    expect(videoPost?.media_urls).toEqual([video.url]);
    expect(videoPost?.media[0]).toMatchObject({ type: 'video' });
    expect(videoPost?.media[0]?.url).toMatch(new RegExp(`^${video.url}\\?expires=\\d+&sig=`));
    expect(videoPost?.media[0]?.thumbnail_url).toMatch(new RegExp(`^/api/images/${poster.key}\\?expires=`));
    // The signed preview opens without a session.
    expect((await api('GET', videoPost?.media[0]?.thumbnail_url as string, null)).statusCode).toBe(200);

    // Scheduled for the collaboration with the signed material URL as the client shows it: stored unsigned.
    const later = new Date(clock.now().getTime() + 2 * 60 * 60_000).toISOString();
    const scheduled = await api('POST', '/api/social/scheduled-posts', creator.token, {
      message: 'Again tomorrow',
      media_urls: [listed?.url],
      scheduled_time: later,
      platforms: ['instagram'],
      collaboration_id: collaborationId,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect((scheduled.json().data as ScheduledPost[])[0]?.media_urls).toEqual([video.url]);

    // Their own image for the same collaboration counts as an image.
    // A JPEG: Instagram takes no other image format (common/rules/social-media.ts).
    const ownJpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#22aa66' } })
      .jpeg()
      .toBuffer();
    const own = await storeUpload(t.ctx, creator.id, ownJpeg, 'image/jpeg', 'jpg');
    const image = await api('POST', '/api/social/publish', creator.token, {
      message: 'A still',
      platforms: ['instagram'],
      media_urls: [own.url],
      selected_collaborations: [collaborationId],
    });
    expect(image.json().data.results[0].status).toBe('published');

    // Nobody else may post the brand's file: not another creator, not this creator outside the collaboration.
    for (const [user, body] of [
      [stranger, { message: 'Mine?', platforms: ['instagram'], mode: 'materials', media_urls: [video.url] }],
      [creator, { message: 'Outside', platforms: ['instagram'], mode: 'materials', media_urls: [listed?.url] }],
      [creator, { message: 'By id', platforms: ['instagram'], mode: 'materials', selected_materials: [material?.id] }],
    ] as const) {
      expect((await api('POST', '/api/social/publish', user.token, body)).statusCode).toBe(404);
    }

    // The brand's campaign: one video and one image delivered of 3 + 2.
    const seen = (await api('GET', `/api/campaigns/${campaignId}`, brand.token)).json().data;
    const row = seen.collaborations[0];
    expect(row.deliverables.map((d: { type: string; completed: number }) => [d.type, d.completed])).toEqual([
      ['Instagram videos', 1],
      ['Instagram images', 1],
    ]);
    expect(row.progress).toEqual({ completed: 2, total: 5, percent: 40 });
    expect(row.performance_metrics.total_posts).toBe(2);
  });
});

describe('media of a published post is readable by everyone while the post is live (issue 21)', () => {
  const imagesOf = (html: string) =>
    [...html.matchAll(/<img src="([^"]+)"/g)].map((m) =>
      (m[1] as string).replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    );
  const anonymous = (url: string) =>
    t.app.inject({ method: 'GET', url: pathOf(new URL(url, t.config.publicUrl).href) });

  it("the share page's image loads for anonymous viewers and other users; private media still needs the session", async () => {
    const author = await createTestUser(t.ctx.db, { role: 'brand' });
    const other = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(author, 'facebook');
    const image = await storeUpload(t.ctx, author.id, await solidPng(24, 16, '#ff3366'), 'image/png', 'png');
    const unposted = await storeUpload(t.ctx, author.id, await solidPng(8, 8, '#00ff00'), 'image/png', 'png');
    const res = await api('POST', '/api/social/publish', author.token, {
      message: 'With a picture',
      platforms: ['facebook'],
      media_urls: [image.url],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(result?.status).toBe('published');
    const share = pathOf(result?.share_url as string);

    for (const cookie of [undefined, sessionCookie(other)]) {
      const page = await t.app.inject({ method: 'GET', url: share, headers: cookie ? { cookie } : {} });
      expect(page.statusCode).toBe(200);
      const [src, ...more] = imagesOf(page.body);
      expect(more).toEqual([]);
      // What the network was sent (an absolute URL on PUBLIC_URL, fetchable without a session), shown by its path
      // since PUBLIC_URL is unset here: the page may have been opened at 127.0.0.1 or by another name.
      expect(src).toMatch(new RegExp(`^${image.url}\\?post=${result?.post_id}&sig=`));
      const got = await anonymous(src as string);
      expect(got.statusCode, got.body).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(await sharp(got.rawPayload).metadata()).toMatchObject({ format: 'png', width: 24, height: 16 });
      const asOther = await t.app.inject({
        method: 'GET',
        url: pathOf(new URL(src as string, t.config.publicUrl).href),
        headers: { cookie: sessionCookie(other) },
      });
      expect(asOther.statusCode).toBe(200);
    }

    // The same file without the post's signature, and media on no post, stay private.
    expect((await anonymous(image.url)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: image.url, headers: authHeader(other.token) })).statusCode).toBe(
      404,
    );
    expect((await anonymous(unposted.url)).statusCode).toBe(401);
    // The post's signature does not open another file of the author's.
    const src = imagesOf((await anonymous(share)).body)[0] as string;
    const borrowed = `${unposted.url}${new URL(src, t.config.publicUrl).search}`;
    expect((await anonymous(borrowed)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: borrowed, headers: authHeader(other.token) })).statusCode).toBe(
      404,
    );

    // The author deletes their account: the post and its media are gone, the URL stops working.
    await purgeUser(t.ctx, author.id);
    expect((await anonymous(src)).statusCode).toBe(404);
    expect((await anonymous(share)).statusCode).toBe(200);
  });

  it('a post that did not go out (failed) does not share its media', async () => {
    const author = await createTestUser(t.ctx.db, { role: 'brand' });
    await connect(author, 'facebook');
    const image = await storeUpload(t.ctx, author.id, await solidPng(8, 8, '#123456'), 'image/png', 'png');
    await t.ctx.db
      .update(sandboxGrants)
      .set({ accessTokenHash: null, refreshTokenHash: null })
      .where(eq(sandboxGrants.userId, author.id));
    const res = await api('POST', '/api/social/publish', author.token, {
      message: 'Refused',
      platforms: ['facebook'],
      media_urls: [image.url],
    });
    const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(result?.status).toBe('failed');
    const url = signPostMediaUrl(t.config, image.url, result?.post_id as string);
    expect((await anonymous(`${t.config.publicUrl}${url}`)).statusCode).toBe(404);
    // Its owner still reads their own file.
    expect((await t.app.inject({ method: 'GET', url, headers: authHeader(author.token) })).statusCode).toBe(200);
  });
});
