// Production mode (NODE_ENV=production) closes the demo doors: no outbox pages, no local checkout unless
// PAYMENTS=local says so, and no code, alert or OAuth state in the log at any level.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnginesReply } from '../../../common/api/engines.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { HealthReply } from '../../../common/api/health.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { type SmtpSink, startSmtpSink } from '../../platform/mail/smtp-sink.ts';
import { authHeader, createTestUser, creditsOf } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

/** What production requires besides SMTP_URL: TRUST_PROXY (no proxy here) and an https:// PUBLIC_URL. */
const production = () => ({
  NODE_ENV: 'production',
  SMTP_URL: sink.url,
  TRUST_PROXY: 'false',
  PUBLIC_URL: 'https://studio.example',
});

/** The text of the last mail the sink received for `to`, soft line breaks and quoted-printable undone. */
function lastMailTo(to: string): string {
  const mail = [...sink.received].reverse().find((m) => m.to.some((r) => r.includes(to)));
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail.data
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('production mode with nothing but SMTP_URL', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const logTo = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // SANDBOX_NETWORKS=true: the log check below walks a whole OAuth connect, which only the sandbox network
    // completes without a real provider (production has none by default, see proxy-and-networks tests).
    t = await createTestApp({ env: { ...production(), SANDBOX_NETWORKS: 'true', LOG_LEVEL: 'trace' }, logTo });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no outbox pages', async () => {
    for (const url of ['/dev/mail', '/dev/mail.json', '/dev/mail.json?to=a@example.com']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('answers 503 "Payments are not configured" to top-up, wallet top-up and subscribe, and has no local checkout', async () => {
    const creator = await createTestUser(t.ctx.db);
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const calls = [
      {
        token: creator.token,
        url: '/api/payment/topup',
        payload: { topupId: 'starter', successUrl: '/dashboard', cancelUrl: '/dashboard' },
      },
      { token: brand.token, url: '/api/brands/wallet/topup', payload: { amount: 50 } },
      { token: creator.token, url: '/api/payment/subscription/checkout', payload: {} },
    ];
    for (const call of calls) {
      const res = await t.app.inject({
        method: 'POST',
        url: call.url,
        payload: call.payload,
        headers: authHeader(call.token),
      });
      expect(res.statusCode, call.url).toBe(503);
      expect(res.json(), call.url).toMatchObject({ success: false, error: MESSAGES.payments.notConfigured });
    }
    const page = await t.app.inject({
      method: 'GET',
      url: '/checkout/local/00000000-0000-4000-8000-000000000000',
      headers: authHeader(creator.token),
    });
    expect(page.statusCode).toBe(404);
    const complete = await t.app.inject({
      method: 'POST',
      url: '/api/payment/local/00000000-0000-4000-8000-000000000000/complete',
      headers: authHeader(creator.token),
    });
    expect(complete.statusCode).toBe(404);
  });

  it('serves no model from the local engines: calls answer 503 naming the variable that enables them', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 500 });
    const video = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/video',
      payload: { prompt: 'a harbour at dawn', model: 'veo-3.0-generate-001', duration: 2 },
      headers: authHeader(user.token),
    });
    expect(video.statusCode, video.body).toBe(503);
    expect(video.json()).toMatchObject({
      success: false,
      code: 'engine_unavailable',
      error: 'Veo 3 (veo-3.0-generate-001) is not available on this server. Set GEMINI_API_KEY or LOCAL_ENGINES=true',
    });
    const image = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/image',
      payload: { prompt: 'a fox', model: 'seedream4' },
      headers: authHeader(user.token),
    });
    expect(image.statusCode).toBe(503);
    expect(image.json().error).toContain('Set BYTEPLUS_API_KEY or LOCAL_ENGINES=true');
    // Nothing was reserved.
    expect(await creditsOf(t.ctx.db, user.id)).toBe(500);

    // Listed as unavailable, with the same words, in the catalogue and in /healthz.
    const engines = (
      await t.app.inject({ method: 'GET', url: '/api/ai/engines', headers: authHeader(user.token) })
    ).json() as EnginesReply;
    expect(engines.localEngines).toBe(false);
    expect(engines.models.find((m) => m.model === 'veo-3.0-generate-001')).toMatchObject({
      available: false,
      engine: 'local',
      unavailableReason: video.json().error,
    });
    expect(engines.models.every((m) => !m.available)).toBe(true);
    const health = (await t.app.inject({ method: 'GET', url: '/healthz' })).json() as HealthReply;
    expect(health.engines.find((m) => m.model === 'veo-3.0-generate-001')).toMatchObject({ available: false });
  });

  it('never logs a verification code, a sign-in alert or an OAuth state, even at trace', async () => {
    const email = `prod-${Date.now()}@example.com`;
    const password = 'Granite-Willow-Passw0rd!';
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Pro', last_name: 'Duction', email, password, role: 'creator' },
    });
    expect(reg.statusCode).toBe(202);
    const code = lastMailTo(email).match(/\b(\d{6})\b/)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify-code', payload: { email, code } });
    expect(verified.statusCode).toBe(200);
    const token = verified.json().token as string;

    // A sign-in from a new device mails an alert.
    const mailsBefore = sink.received.length;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' },
    });
    expect(login.statusCode).toBe(200);
    expect(sink.received.length).toBeGreaterThan(mailsBefore);
    const alert = lastMailTo(email);

    // An OAuth connect, its consent page and its callback all carry the state in their URLs.
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/social/connect/instagram',
      headers: authHeader(token),
    });
    expect(connect.statusCode).toBe(200);
    const authUrl = new URL(connect.json().authUrl, 'http://localhost');
    const state = authUrl.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThanOrEqual(16);
    await t.app.inject({ method: 'GET', url: `${authUrl.pathname}${authUrl.search}`, headers: authHeader(token) });
    await t.app.inject({ method: 'GET', url: `/api/social/oauth/instagram?state=${state}&code=not-a-code` });

    const output = lines.join('');
    expect(output).toContain('/api/social/oauth/instagram');
    expect(output).toContain('mail sent');
    for (const secret of [code, state, token]) expect(output).not.toContain(secret);
    const alertLines = alert.split(/\r?\n/).filter((l) => l.trim().length > 24 && !l.includes(':'));
    expect(alertLines.length).toBeGreaterThan(0);
    for (const line of alertLines) expect(output).not.toContain(line.trim());
  });
});

describe('production mode with PAYMENTS=local and LOCAL_ENGINES=true (a staging site)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { ...production(), PAYMENTS: 'local', LOCAL_ENGINES: 'true' },
    });
  });

  it('serves the models from the local engines at the local preview prices', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 100 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/video',
      payload: { prompt: 'a harbour at dawn', model: 'veo-3.0-generate-001', duration: 2 },
      headers: authHeader(user.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(100 - LOCAL_PREVIEW_PRICES.videoPro);
    const engines = (
      await t.app.inject({ method: 'GET', url: '/api/ai/engines', headers: authHeader(user.token) })
    ).json() as EnginesReply;
    expect(engines.localEngines).toBe(true);
    expect(engines.models.every((m) => m.available && m.engineKind === 'local')).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('turns the local checkout back on', async () => {
    const user = await createTestUser(t.ctx.db);
    const topup = await t.app.inject({
      method: 'POST',
      url: '/api/payment/topup',
      payload: { topupId: 'starter', successUrl: '/dashboard', cancelUrl: '/dashboard' },
      headers: authHeader(user.token),
    });
    expect(topup.statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: topup.json().url, headers: authHeader(user.token) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pay');
  });
});
