// Setting up marketplace journeys over HTTP (brands, approved creators, funded campaigns, collaborations,
// connected sandbox networks), so a journey spends its browser time on what it checks.
import { CREATOR_TYPES } from '../common/rules/directory.ts';
import { baseUrl, expect, signUpByApi, uniqueEmail } from './browser.ts';

export const MARKET_PASSWORD = 'violet-harbor-lamp-7';

export interface Account {
  id: string;
  email: string;
  token: string;
}

type Body = { data?: Record<string, unknown> } & Record<string, unknown>;

/** One JSON call of the API as `token`; throws with the reply unless it succeeded. */
export async function api(pathname: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${baseUrl()}${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json()) as Body;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function registerVerified(role: 'creator' | 'brand', first: string, prefix = 'market'): Promise<Account> {
  const email = uniqueEmail(`${prefix}-${role}`);
  const { token, user } = await signUpByApi({
    first_name: first,
    last_name: 'Market',
    email,
    password: MARKET_PASSWORD,
    role,
  });
  return { id: user.id, email, token };
}

export async function adminToken(): Promise<string> {
  const login = await fetch(`${baseUrl()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
  });
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/** Pays a wallet top-up through the local checkout page, as its form does. */
export async function payLocalCheckout(checkoutUrl: string, token: string) {
  const cookie = `genpro_session=${token}`;
  const html = await (await fetch(`${baseUrl()}${checkoutUrl}`, { headers: { cookie } })).text();
  const formToken = html.match(/name="token" value="([0-9a-f]+)"/)?.[1];
  const action = html.match(/action="(\/api\/payment\/local\/[^"]+\/complete)"/)?.[1];
  if (!formToken || !action) throw new Error('local checkout page without its Pay form');
  const paid = await fetch(`${baseUrl()}${action}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: formToken }).toString(),
    redirect: 'manual',
  });
  expect(paid.status).toBeLessThan(400);
}

export interface Deliverable {
  type: string;
  quantity: number;
  platform?: string;
  contentType?: string;
}

/**
 * An active collaboration: a brand funds its wallet (€100), opens a campaign with these deliverables, an approved
 * creator applies at `rate` euros and is accepted.
 */
export async function activeCollaboration(options: {
  title: string;
  platforms: string[];
  contentTypes: string[];
  deliverables?: Deliverable[];
  rate: number;
  prefix: string;
}) {
  const admin = await adminToken();
  const brand = await registerVerified('brand', 'Bianca', options.prefix);
  const creator = await registerVerified('creator', 'Cyrus', options.prefix);
  await api('/api/admin/users/approve', admin, {
    method: 'POST',
    body: { userId: creator.id, action: 'approve', creatorType: CREATOR_TYPES[0] },
  });
  const topup = await api('/api/brands/wallet/topup', brand.token, { method: 'POST', body: { amount: 100 } });
  await payLocalCheckout(topup.checkout_url as string, brand.token);
  const campaign = await api('/api/campaigns', brand.token, {
    method: 'POST',
    body: {
      title: options.title,
      objective: 'Awareness',
      budget: 80,
      platforms: options.platforms,
      contentTypes: options.contentTypes,
      ...(options.deliverables ? { deliverables: options.deliverables } : {}),
      status: 'draft',
    },
  });
  const campaignId = (campaign.data as { id: string }).id;
  await api(`/api/campaigns/${campaignId}`, brand.token, { method: 'PATCH', body: { status: 'open' } });
  const applied = await api(`/api/campaigns/${campaignId}/applications`, creator.token, {
    method: 'POST',
    body: { message: 'I shoot autumn looks', rate: options.rate },
  });
  const applicationId = (applied.data as { id: string }).id;
  const accepted = await api(`/api/applications/${applicationId}/accept`, brand.token, { method: 'POST' });
  const collaborationId = (accepted.data as { collaboration_id: string }).collaboration_id;
  return { admin, brand, creator, campaignId, collaborationId };
}

/** Connects a sandbox network as a browser would: connect → consent page → Approve → OAuth callback. */
export async function connectSandboxByApi(token: string, platform: string): Promise<void> {
  const base = baseUrl();
  const started = await fetch(`${base}/api/social/connect/${platform}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  const { authUrl } = (await started.json()) as { authUrl: string };
  const connectCookie = (started.headers.getSetCookie() ?? [])
    .find((c) => c.startsWith('genpro_social_connect='))
    ?.split(';')[0];
  const cookie = `genpro_session=${token}`;
  const auth = new URL(authUrl, base);
  const consent = await (await fetch(`${base}${auth.pathname}${auth.search}`, { headers: { cookie } })).text();
  const fields = Object.fromEntries(
    [...consent.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      (m[2] as string).replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))),
    ]),
  );
  const approved = await fetch(`${base}/social/sandbox/${platform}/authorize`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
    redirect: 'manual',
  });
  const callback = new URL(String(approved.headers.get('location')), base);
  const done = await fetch(`${base}${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookie}; ${connectCookie}` },
  });
  if (done.status !== 200) throw new Error(`connecting ${platform}: ${done.status} ${await done.text()}`);
}

/** Uploads a file to the user's media (POST /api/upload); its media URL. */
export async function uploadFile(token: string, bytes: Buffer, filename: string, contentType: string) {
  const form = new FormData();
  form.set('type', contentType.startsWith('video/') ? 'video' : 'image');
  form.set('file', new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
  const res = await fetch(`${baseUrl()}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
    body: form,
  });
  const body = (await res.json()) as { data: { url: string } };
  if (!res.ok) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.data.url;
}
