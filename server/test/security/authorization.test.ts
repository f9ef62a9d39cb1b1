// Walks every operation of the OpenAPI document: no session → 401, another user's resource → 404,
// wrong role (or an unapproved creator) → 403. Prints a table of routes × checks; any ✗ fails.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { generateToken } from '../../platform/auth/crypto.ts';
import { SESSION_COOKIE } from '../../platform/auth/session.ts';
import { authHeader, createTestUser, type TestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { type Fixture, ROUTE_CATALOGUE, type Role, type RouteRule, type SampleRequest } from './authz-catalogue.ts';
import { type Cast, createCast, createFixture, otherOf, ownerOf, snapshot } from './authz-fixtures.ts';

type Mark = '✓' | '–' | '✗';
interface Row {
  method: string;
  path: string;
  cls: string;
  unauthenticated: Mark;
  othersResource: Mark;
  wrongRole: Mark;
}

const ROLES: readonly Role[] = ['creator', 'brand', 'admin'];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

let t: TestApp;
let cast: Cast;
let fx: Fixture;
const operations: { method: string; path: string; key: string }[] = [];
const rows = new Map<string, Row>();

function classOf(rule: RouteRule): string {
  const base = rule.access === 'public' ? 'public' : rule.access === 'signed-in' ? 'signed-in' : rule.access.join('|');
  const extras = [
    rule.resource ? (rule.visibleToOthers ? 'shared resource' : 'owns resource') : '',
    rule.references ? 'refers to resources' : '',
    rule.approvedOnly ? 'approved' : '',
  ];
  return [base, ...extras.filter(Boolean)].join(' + ');
}

function requestOf(
  method: string,
  path: string,
  sample: SampleRequest,
  headers: Record<string, string>,
): InjectOptions {
  const params = sample.params ?? {};
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name] ?? (name === '*' ? 'missing/key.png' : '00000000-0000-4000-8000-000000000000');
    return name === '*' ? value : encodeURIComponent(value);
  });
  const query = sample.query ? `?${new URLSearchParams(sample.query).toString()}` : '';
  const body = sample.body ?? (BODY_METHODS.has(method) ? {} : undefined);
  return {
    method: method as InjectOptions['method'],
    url: `${url}${query}`,
    headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  };
}

async function call(method: string, path: string, headers: Record<string, string>) {
  const rule = ROUTE_CATALOGUE[`${method} ${path}`];
  const res = await t.app.inject(requestOf(method, path, rule?.request?.(fx) ?? {}, headers));
  let body: { success?: boolean; error?: unknown; code?: unknown } = {};
  try {
    body = res.json();
  } catch {}
  return { status: res.statusCode, body, text: res.body.slice(0, 200) };
}

const rowOf = (key: string) => {
  const row = rows.get(key);
  if (!row) throw new Error(`no row for ${key}`);
  return row;
};

beforeAll(async () => {
  t = await createTestApp();
  cast = await createCast(t.ctx);
  fx = await createFixture(t.ctx, cast);
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      operations.push({ method: method.toUpperCase(), path, key });
      const rule = ROUTE_CATALOGUE[key];
      rows.set(key, {
        method: method.toUpperCase(),
        path,
        cls: rule ? classOf(rule) : 'UNCLASSIFIED',
        unauthenticated: '–',
        othersResource: '–',
        wrongRole: '–',
      });
    }
  }
});

afterAll(async () => {
  const list = [...rows.values()];
  const count = (mark: Mark, field: 'unauthenticated' | 'othersResource' | 'wrongRole') =>
    list.filter((r) => r[field] === mark).length;
  const width = Math.max(...list.map((r) => `${r.method} ${r.path}`.length));
  const clsWidth = Math.max(...list.map((r) => r.cls.length));
  const lines = [
    `${'route'.padEnd(width)}  ${'class'.padEnd(clsWidth)}  401  404  403`,
    ...list.map(
      (r) =>
        `${`${r.method} ${r.path}`.padEnd(width)}  ${r.cls.padEnd(clsWidth)}   ${r.unauthenticated}    ${r.othersResource}    ${r.wrongRole}`,
    ),
    `${list.length} operations; 401 ✓${count('✓', 'unauthenticated')} ✗${count('✗', 'unauthenticated')}; ` +
      `404 ✓${count('✓', 'othersResource')} ✗${count('✗', 'othersResource')}; ` +
      `403 ✓${count('✓', 'wrongRole')} ✗${count('✗', 'wrongRole')}`,
    `classes: ${list.filter((r) => r.cls === 'public').length} public, ` +
      `${list.filter((r) => /^(creator|brand|admin)/.test(r.cls)).length} role-restricted, ` +
      `${list.filter((r) => r.cls.includes('resource')).length} addressing or referring to a resource; ` +
      '– = not applicable (public, no resource, or any role allowed)',
  ];
  console.log(lines.join('\n'));
  await t?.close();
});

describe('authorisation of every route in the OpenAPI document', () => {
  it('every operation is classified in authz-catalogue.ts, and the catalogue lists nothing else', () => {
    expect(operations.length).toBeGreaterThan(100);
    const keys = new Set(operations.map((o) => o.key));
    const unclassified = operations.filter((o) => !ROUTE_CATALOGUE[o.key]).map((o) => o.key);
    expect(
      unclassified,
      `classify these routes in server/test/security/authz-catalogue.ts (public with a reason, signed-in, roles, or a resource)`,
    ).toEqual([]);
    const stale = Object.keys(ROUTE_CATALOGUE).filter((key) => !keys.has(key));
    expect(stale, 'these catalogue entries are no longer routes of the OpenAPI document').toEqual([]);
    const unexplained = Object.entries(ROUTE_CATALOGUE)
      .filter(([, rule]) => (rule.access === 'public' || rule.visibleToOthers) && !rule.why)
      .map(([key]) => key);
    expect(unexplained, 'public routes and shared resources need a reason (why)').toEqual([]);
  });

  it('no session → 401 on every route that is not public (and public ones answer without one)', async () => {
    const failures: string[] = [];
    for (const { method, path, key } of operations) {
      const rule = ROUTE_CATALOGUE[key];
      if (!rule) continue;
      const res = await call(method, path, {});
      if (rule.access === 'public') {
        // Answered without a session (whatever the answer to an empty request is), or it is not public.
        if (res.status === 401) failures.push(`${key} is catalogued public but asks for a session: ${res.text}`);
        continue;
      }
      const ok = res.status === 401 && res.body.success === false && typeof res.body.error === 'string';
      rowOf(key).unauthenticated = ok ? '✓' : '✗';
      if (!ok) failures.push(`${key}: ${res.status} ${res.text}`);
    }
    expect(failures).toEqual([]);
  });

  it("another user's resource → 404 with the not-found answer, and nothing of it changes", async () => {
    const before = await snapshot(t.ctx, fx);
    const failures: string[] = [];
    for (const { method, path, key } of operations) {
      const rule = ROUTE_CATALOGUE[key];
      if (!rule) continue;
      let ok = true;
      let checked = false;
      if (rule.resource && !rule.visibleToOthers) {
        checked = true;
        const res = await call(method, path, authHeader(otherOf(cast, rule.as ?? 'creator').token));
        if (res.status !== 404 || res.body.success !== false || res.body.code !== 'not_found') {
          ok = false;
          failures.push(`${key} as ${rule.as ?? 'creator'} B: ${res.status} ${res.text}`);
        }
      }
      for (const probe of rule.references ?? []) {
        checked = true;
        const sample = { ...rule.request?.(fx), ...probe.request(fx) };
        const res = await t.app.inject(
          requestOf(method, path, sample, authHeader(otherOf(cast, probe.as ?? 'creator').token)),
        );
        const body = res.json() as { success?: boolean; code?: string; error?: unknown };
        // A body naming another user's media or record is refused as not found, or as a bad reference.
        const refused =
          (res.statusCode === 404 && body.code === 'not_found') ||
          (res.statusCode === 400 && body.code !== 'validation');
        if (!refused || body.success !== false || typeof body.error !== 'string') {
          ok = false;
          failures.push(`${key} with A's ${probe.what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
      if (checked) rowOf(key).othersResource = ok ? '✓' : '✗';
    }
    expect(failures).toEqual([]);
    expect(await snapshot(t.ctx, fx)).toEqual(before);
  });

  it('a campaign others may see shows them neither its held budget nor what its creators are paid', async () => {
    const read = async (url: string, user: TestUser) => {
      const res = await t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const amounts = (collabs: { agreed_amount: unknown; agreedCents: unknown }[]) =>
      collabs.map((c) => [c.agreed_amount, c.agreedCents]);
    const creatorB = await read(`/api/campaigns/${fx.openCampaign}`, cast.creatorB);
    expect([creatorB.heldCents, creatorB.plan]).toEqual([null, null]);
    expect(amounts(creatorB.collaborations)).toEqual([[null, null]]);
    expect(amounts(await read(`/api/campaigns/${fx.openCampaign}/collaborations`, cast.creatorB))).toEqual([
      [null, null],
    ]);
    // Another brand sees the public card only (no budget, collaborations or materials): cross-tenant.int.test.ts.
    const brandB = await read(`/api/campaigns/${fx.openCampaign}`, cast.brandB);
    expect([brandB.budgetCents, brandB.heldCents, brandB.plan, brandB.collaborations]).toEqual([null, null, null, []]);
    // The campaign's brand, an admin and the collaborating creator (creator A) see the agreed amount.
    for (const insider of [cast.brandA, cast.admin, cast.creatorA]) {
      expect(amounts(await read(`/api/campaigns/${fx.openCampaign}/collaborations`, insider))).toEqual([[10, 1_000]]);
    }
  });

  it('the owner making the same requests is not refused (so the 404s above are about ownership)', async () => {
    const owned = operations.filter((o) => ROUTE_CATALOGUE[o.key]?.resource);
    // Deletions last, and the owner's own session (which the suite signs in with) at the very end.
    const order = (o: { method: string; path: string }) =>
      o.path === '/api/auth/sessions/{id}' ? 2 : o.method === 'DELETE' ? 1 : 0;
    owned.sort((a, b) => order(a) - order(b));
    const failures: string[] = [];
    for (const { method, path, key } of owned) {
      const rule = ROUTE_CATALOGUE[key];
      const owner = rule.owner ?? rule.as ?? 'creator';
      // A brand's draft is what a creator may not apply to; the brand itself may not apply at all (403 above).
      if (Array.isArray(rule.access) && !rule.access.includes(owner)) continue;
      const res = await call(method, path, authHeader(ownerOf(cast, owner).token));
      if ([401, 403, 404].includes(res.status) || res.status >= 500) failures.push(`${key}: ${res.status} ${res.text}`);
    }
    expect(failures).toEqual([]);
  });

  it('wrong role → 403, and an unapproved creator → 403 where approval is required', async () => {
    const failures: string[] = [];
    for (const { method, path, key } of operations) {
      const rule = ROUTE_CATALOGUE[key];
      if (!rule) continue;
      const callers: [string, TestUser][] = [];
      if (Array.isArray(rule.access)) {
        const allowed = rule.access as readonly Role[];
        for (const role of ROLES) if (!allowed.includes(role)) callers.push([role, otherOf(cast, role)]);
      }
      if (rule.approvedOnly) callers.push(['pending creator', cast.pendingCreator]);
      if (callers.length === 0) continue;
      let ok = true;
      for (const [who, user] of callers) {
        const res = await call(method, path, authHeader(user.token));
        if (res.status !== 403 || res.body.success !== false || typeof res.body.error !== 'string') {
          ok = false;
          failures.push(`${key} as ${who}: ${res.status} ${res.text}`);
        }
      }
      rowOf(key).wrongRole = ok ? '✓' : '✗';
    }
    expect(failures).toEqual([]);
  });

  it('a deleted user, an expired or revoked session and malformed credentials → 401', async () => {
    const probes: [string, string][] = [
      ['GET', '/api/auth/me'],
      ['GET', '/api/ai/assets'],
      ['POST', '/api/editor-sessions'],
      ['GET', '/api/admin/creators'],
    ];
    const deleted = await createTestUser(t.ctx.db);
    const removal = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/users/delete',
      headers: authHeader(cast.admin.token),
      payload: { userId: deleted.id },
    });
    expect(removal.statusCode).toBe(200);
    const expired = await createTestUser(t.ctx.db);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id));
    const revoked = await createTestUser(t.ctx.db, { role: 'admin' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(revoked.token) })).statusCode,
    ).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: authHeader(revoked.token) });
    expect(logout.statusCode).toBe(200);
    const unknown = generateToken();
    const credentials: [string, Record<string, string>][] = [
      ['deleted user', authHeader(deleted.token)],
      ['expired session', authHeader(expired.token)],
      ['revoked session', authHeader(revoked.token)],
      ['unknown token', authHeader(unknown)],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['bearer without space', { authorization: `Bearer${revoked.token}` }],
      ['basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['oversized bearer', { authorization: `Bearer ${'x'.repeat(8000)}` }],
      ['garbage cookie', { cookie: `${SESSION_COOKIE}=%%%not-a-token`, 'x-requested-with': 'XMLHttpRequest' }],
    ];
    const failures: string[] = [];
    for (const [who, headers] of credentials) {
      for (const [method, url] of probes) {
        const res = await t.app.inject({
          method: method as InjectOptions['method'],
          url,
          headers,
          ...(method === 'POST' ? { payload: { name: 'x', component_type: 'canvas', data: {} } } : {}),
        });
        if (res.statusCode !== 401)
          failures.push(`${who} ${method} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
