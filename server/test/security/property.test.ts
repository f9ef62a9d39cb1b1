// Property tests over every operation in the OpenAPI document: requests that are invalid by construction
// (malformed bodies, wrong types, oversized strings, out-of-range numbers, unicode edge cases where a
// constraint makes them invalid, garbage instead of multipart) always get a 4xx JSON error with a message,
// never a 5xx, and change no row in any table. A second sweep puts edge-case unicode and extreme numbers in
// the fields the schema leaves open (so the request may be valid): accepted or refused, never a 5xx.
// Failures name the operation and its fast-check seed (SEED + the operation's index) to replay.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestUser, type TestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import {
  edgeTextRequests,
  type GeneratedRequest,
  invalidRequests,
  type Operation,
  oddJsonRequests,
} from './property-requests.ts';

const SEED = 20_261_121;
const RUNS_PER_OPERATION = 20;
const EDGE_TEXT_RUNS_PER_OPERATION = 6;
const ODD_JSON_RUNS_PER_OPERATION = 8;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Columns that change on any authenticated request, whatever it carries. */
const VOLATILE_COLUMNS = [
  'last_seen_at', // sessions: touched at most once a minute by authenticateRequest
];

/**
 * Tables only the workers write, whenever their time comes (no request does): the hourly weekly report marks each
 * verified user's week in notification_schedule, and may run in the middle of a sweep; every process with workers
 * beats its worker_heartbeats row every few seconds; `engine_calls` holds each engine's last call, written in the
 * background after any engine call (a task of an earlier test may end mid-sweep).
 */
const JOB_BOOKKEEPING_TABLES = ['notification_schedule', 'worker_heartbeats', 'engine_calls'];

/** Routes whose role check sits in the service rather than the route guard: probe them as this role. */
const SERVICE_ROLE: Record<string, 'brand'> = {
  'POST /api/campaigns': 'brand',
  'POST /api/campaigns/plan': 'brand',
  'PATCH /api/campaigns/{id}': 'brand',
  'DELETE /api/campaigns/{id}': 'brand',
  'POST /api/applications/{id}/accept': 'brand',
  'POST /api/applications/{id}/decline': 'brand',
};

let t: TestApp;
type Role = 'creator' | 'brand' | 'admin';
let probers: Record<Role, TestUser>;
let operations: Operation[] = [];

/**
 * Event streams stay open while the caller is connected, so a request that passes validation never ends here;
 * their refusals (401, 400 on a bad query) are tested in their own suite (server/features/tasks/events.int.test.ts).
 */
const STREAMS = new Set(['GET /api/tasks/events']);

function listOperations(doc: { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> }) {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (STREAMS.has(`${method.toUpperCase()} ${path}`)) continue;
      if (METHODS.includes(method)) out.push({ ...op, method: method.toUpperCase(), path });
    }
  }
  return out;
}

/** One digest per table of the public schema (rows as JSON, volatile columns left out). */
async function snapshot(): Promise<Map<string, string>> {
  const { rows: all } = await t.ctx.database.executeSql(
    `select tablename from pg_tables where schemaname = 'public' order by tablename`,
  );
  const tables = all.filter(({ tablename }) => !JOB_BOOKKEEPING_TABLES.includes(String(tablename)));
  const strip = VOLATILE_COLUMNS.map((c) => ` - '${c}'`).join('');
  const selects = tables.map(
    ({ tablename }) =>
      `select '${tablename}' as name, md5(coalesce(string_agg((to_jsonb(t)${strip})::text, ',' order by (to_jsonb(t)${strip})::text), '')) as digest from public."${tablename}" t`,
  );
  const { rows } = await t.ctx.database.executeSql(selects.join(' union all '), []);
  return new Map(rows.map((r) => [String(r.name), String(r.digest)]));
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
}

async function send(method: string, request: GeneratedRequest, token: string | undefined) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.contentType) headers['content-type'] = request.contentType;
  return t.app.inject({ method: method as 'GET', url: request.url, headers, payload: request.payload });
}

/**
 * Who calls the route: nobody for public routes, else a fresh user (so no earlier request can have signed it
 * out) of the first role the route's guard lets through. The probe is refused by validation after the guard
 * (a NUL path param, or an array body), so it changes nothing.
 */
async function callerFor(op: Operation): Promise<TestUser | undefined> {
  const key = `${op.method} ${op.path}`;
  const fresh = (role: Role) => createTestUser(t.ctx.db, { role, credits: 1000 });
  if (SERVICE_ROLE[key]) return fresh(SERVICE_ROLE[key]);
  const hasParams = (op.parameters ?? []).some((p) => p.in === 'path');
  const hasBody = Boolean(op.requestBody?.content['application/json']);
  if (op.method !== 'GET' && !hasParams && !hasBody) return fresh('creator');
  const url = op.path.replace(/\{[^}]+\}/g, '%00');
  const probe = (token?: string) =>
    t.app.inject({
      method: op.method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(hasBody
        ? {
            payload: '[]',
            headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          }
        : {}),
    });
  if ((await probe()).statusCode !== 401) return undefined;
  for (const role of ['creator', 'brand', 'admin'] as const) {
    if ((await probe(probers[role].token)).statusCode !== 403) return fresh(role);
  }
  return fresh('creator');
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE: '1000000',
      // Every fuzzed call comes from one address, over many fresh accounts.
      RATE_LIMIT_TEXT_AGENTS_PER_ADDRESS_PER_MINUTE: '1000000',
      RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000000',
    },
  });
  probers = {
    creator: await createTestUser(t.ctx.db, { role: 'creator', credits: 1000 }),
    brand: await createTestUser(t.ctx.db, { role: 'brand', credits: 1000 }),
    admin: await createTestUser(t.ctx.db, { role: 'admin', credits: 1000 }),
  };
  operations = listOperations(t.app.swagger() as never);
});

afterAll(async () => {
  await t?.close();
});

interface Sweep {
  generator: (op: Operation) => fc.Arbitrary<GeneratedRequest> | null;
  runs: number;
  check: (status: number, contentType: unknown, body: string, operation: string) => string | null;
  /** Also fail when any row changed over the operation's runs. */
  rowsUnchanged: boolean;
}

/** Runs the sweep's property over every operation; returns the failures (one line each, with its seed). */
async function sweep({ generator, runs, check, rowsUnchanged }: Sweep): Promise<string[]> {
  const failures: string[] = [];
  const skipped: string[] = [];
  const statuses = new Map<number, number>();
  let covered = 0;
  for (const [index, op] of operations.entries()) {
    const key = `${op.method} ${op.path}`;
    const requests = generator(op);
    if (!requests) {
      skipped.push(key);
      continue;
    }
    covered++;
    const caller = await callerFor(op);
    const before = rowsUnchanged ? await snapshot() : undefined;
    const seed = SEED + index;
    const outcome = await fc.check(
      fc.asyncProperty(requests, async (request) => {
        const res = await send(op.method, request, caller?.token);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const problem = check(res.statusCode, res.headers['content-type'], res.body, key);
        if (problem) throw new Error(`${problem} (${request.invalid})`);
      }),
      { seed, numRuns: runs },
    );
    if (outcome.failed) {
      const example = outcome.counterexample?.[0] as GeneratedRequest | undefined;
      failures.push(
        `${key} [seed ${seed}]: ${(outcome.errorInstance as Error | undefined)?.message} — ${summarise(example)}`,
      );
    }
    if (before) {
      const changed = changedTables(before, await snapshot());
      if (changed.length) failures.push(`${key} [seed ${seed}]: rows changed in ${changed.join(', ')}`);
    }
  }
  const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
  console.info(
    `${covered} operations × ${runs} runs (statuses ${tally.join(' ')}); nothing to vary in: ${skipped.join(', ') || 'none'}`,
  );
  return failures;
}

describe('fast-check over every route in the OpenAPI document', () => {
  test('the OpenAPI document lists the routes', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  test('invalid input always gets a 4xx with a message and changes no row', { timeout: 180_000 }, async () => {
    const failures = await sweep({
      generator: invalidRequests,
      runs: RUNS_PER_OPERATION,
      check: checkRefusal,
      rowsUnchanged: true,
    });
    expect(failures).toEqual([]);
  });

  test('odd JSON (5,000 deep, lone surrogates) is a 400 with a message on every JSON route', {
    timeout: 180_000,
  }, async () => {
    const failures = await sweep({
      generator: oddJsonRequests,
      runs: ODD_JSON_RUNS_PER_OPERATION,
      check: (status, contentType, body) =>
        status === 400 ? checkRefusal(status, contentType, body) : `status ${status}: ${body.slice(0, 300)}`,
      rowsUnchanged: true,
    });
    expect(failures).toEqual([]);
  });

  // Runs last: these requests may be valid, so they can create rows and start tasks.
  test('edge-case unicode in free text and extreme numbers never cause a 5xx', { timeout: 180_000 }, async () => {
    const failures = await sweep({
      generator: edgeTextRequests,
      runs: EDGE_TEXT_RUNS_PER_OPERATION,
      check: (status, contentType, body, operation) => {
        if (status < 400) return null;
        // The OAuth callback and the Facebook Page choice it may show are a browser tab: they answer a page that
        // says what went wrong.
        const page = BROWSER_TAB_ROUTES.has(operation) && String(contentType).startsWith('text/html');
        if (status < 500 && page && body.includes('<')) return null;
        return checkRefusal(status, contentType, body);
      },
      rowsUnchanged: false,
    });
    expect(failures).toEqual([]);
  });
});

const BROWSER_TAB_ROUTES = new Set(['GET /api/social/oauth/{id}', 'POST /api/social/oauth/{id}/choose']);

function summarise(request: GeneratedRequest | undefined): string {
  if (!request) return '';
  const payload = request.payload === undefined ? '' : ` ${request.contentType} ${request.payload.slice(0, 160)}`;
  return `${request.url.slice(0, 200)}${payload}`;
}

function checkRefusal(status: number, contentType: unknown, body: string): string | null {
  if (status < 400 || status > 499) return `status ${status}: ${body.slice(0, 300)}`;
  if (!String(contentType).includes('application/json')) return `status ${status} not JSON: ${body.slice(0, 200)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `status ${status} body not JSON: ${body.slice(0, 200)}`;
  }
  const reply = parsed as { success?: unknown; error?: unknown };
  if (reply.success !== false || typeof reply.error !== 'string' || reply.error.trim() === '') {
    return `status ${status} without an error message: ${body.slice(0, 200)}`;
  }
  return null;
}
