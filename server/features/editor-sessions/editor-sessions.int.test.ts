import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EditorSession,
  EditorSessionSummary,
  ListEditorSessionsReply,
} from '../../../common/api/editor-sessions.ts';
import { authHeader, createTestPersona, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: token ? authHeader(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const samples: Record<string, Record<string, unknown>> = {
  'multi-image-canvas': {
    canvasImages: [
      { id: 'i1', url: '/m/a.png', x: 50, y: 50, width: 300, height: 200, isDragging: true, isSelected: true },
    ],
    canvasState: { zoom: 1.5, panX: 12, panY: -4, isPanning: true, lastPanPoint: { x: 9, y: 9 } },
    imageSequence: [
      { id: 's1', imageUrl: '/m/a.png', videoStatus: 'completed', videoUrl: '/m/a.mp4' },
      { id: 's2', imageUrl: '/m/b.png', videoStatus: 'generating', taskId: 't' },
    ],
    masterSequence: { id: 'm', items: [], isGeneratingMaster: true },
    movieScript: 'INT. ROOM',
    selectedImageIds: ['i1'],
    activeTool: 'select',
    inputMode: 'generate',
    videoGenerationMode: 'dream',
  },
  'magic-selector': { baseImage: null, prompt: 'a hat', mode: 'inpaint', result: null },
  'multi-reference': { referenceImages: [{ id: 'r', url: '/m/r.png', weight: 50 }], prompt: 'blend' },
  'multi-composition': { layers: [{ id: 'l' }], canvasWidth: 1024, canvasHeight: 768 },
};

async function create(token: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/editor-sessions', token, body);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: EditorSession }).data;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
});
afterAll(async () => {
  await t?.close();
});

describe('editor sessions', () => {
  it.each(Object.keys(samples))('round-trips a %s session', async (type) => {
    const data = samples[type] as Record<string, unknown>;
    const saved = await create(user.token, {
      name: `My ${type}`,
      component_type: type,
      thumbnail_url: 'data:image/png;base64,AAAA',
      data,
      size_bytes: 1,
    });
    expect(saved.size_bytes).toBe(Buffer.byteLength(JSON.stringify(saved.data)));
    const res = await call('GET', `/api/editor-sessions/${saved.id}`, user.token);
    expect(res.statusCode).toBe(200);
    const loaded = (res.json() as { data: EditorSession }).data;
    expect(loaded).toMatchObject({
      name: `My ${type}`,
      component_type: type,
      thumbnail_url: 'data:image/png;base64,AAAA',
    });
    expect(loaded.data).toEqual(saved.data);
    if (type === 'multi-image-canvas') {
      expect(loaded.data.canvasImages).toEqual([expect.objectContaining({ isDragging: false, isSelected: false })]);
      expect(loaded.data.canvasState).toMatchObject({ zoom: 1.5, panX: 12, panY: -4, isPanning: false });
      expect((loaded.data.imageSequence as { videoStatus: string }[]).map((s) => s.videoStatus)).toEqual([
        'completed',
        'pending',
      ]);
      expect(loaded.data.masterSequence).toMatchObject({ isGeneratingMaster: false });
    } else {
      expect(loaded.data).toEqual(data);
    }
  });

  it.each([
    ['magic-selector', 'not an object', 'Session data must be an object'],
    ['multi-image-canvas', { canvasState: {}, imageSequence: [] }, 'canvasImages must be an array'],
    ['multi-image-canvas', { canvasImages: [], canvasState: [], imageSequence: [] }, 'canvasState must be an object'],
    ['multi-image-canvas', { canvasImages: [], canvasState: {} }, 'imageSequence must be an array'],
    ['magic-selector', { baseImage: 3, prompt: '', mode: 'x' }, 'baseImage must be a string or null'],
    ['magic-selector', { baseImage: null, mode: 'x' }, 'prompt must be a string'],
    ['magic-selector', { baseImage: 'b', prompt: '' }, 'mode must be a string'],
    ['multi-reference', { prompt: 'p' }, 'referenceImages must be an array'],
    ['multi-reference', { referenceImages: [], prompt: 5 }, 'prompt must be a string'],
    ['multi-composition', { canvasWidth: 1, canvasHeight: 1 }, 'layers must be an array'],
    ['multi-composition', { layers: [], canvasWidth: 1 }, 'canvasWidth and canvasHeight must be numbers'],
  ])('rejects %s data with "%s"', async (type, data, message) => {
    const res = await call('POST', '/api/editor-sessions', user.token, { name: 'x', component_type: type, data });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: `Invalid session data: ${message}` });
    expect((res.json() as { details: { errors: string[] } }).details.errors).toEqual([message]);
  });

  it('rejects an unsupported component type', async () => {
    const res = await call('POST', '/api/editor-sessions', user.token, {
      name: 'x',
      component_type: 'paint',
      data: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Unsupported component type: paint' });
  });

  it('rejects data over 10 MB with 413', async () => {
    const data = { baseImage: 'x'.repeat(10.5 * 1024 * 1024), prompt: '', mode: 'inpaint' };
    const res = await call('POST', '/api/editor-sessions', user.token, {
      name: 'big',
      component_type: 'magic-selector',
      data,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, error: 'Session data too large: 10.50MB (max: 10MB)' });
  });

  it('rejects malformed payloads', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/editor-sessions',
      headers: { ...authHeader(user.token), 'content-type': 'application/json' },
      payload: '{"name": "x", "data": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
    const noName = await call('POST', '/api/editor-sessions', user.token, {
      component_type: 'magic-selector',
      data: {},
    });
    expect(noName.statusCode).toBe(400);
    const badCursor = await call('GET', '/api/editor-sessions?cursor=zzz', user.token);
    expect(badCursor.statusCode).toBe(400);
  });

  it('updates some fields, re-validating new data, and deletes', async () => {
    const saved = await create(user.token, {
      name: 'a',
      component_type: 'multi-reference',
      data: samples['multi-reference'],
    });
    const renamed = await call('PUT', `/api/editor-sessions/${saved.id}`, user.token, { name: 'b' });
    expect(renamed.statusCode).toBe(200);
    expect((renamed.json() as { data: EditorSession }).data).toMatchObject({ name: 'b', data: saved.data });
    const invalid = await call('PUT', `/api/editor-sessions/${saved.id}`, user.token, { data: { prompt: 'p' } });
    expect(invalid.json()).toMatchObject({ error: 'Invalid session data: referenceImages must be an array' });
    const del = await call('DELETE', `/api/editor-sessions/${saved.id}`, user.token);
    expect(del.json()).toEqual({ success: true, message: 'Session deleted successfully' });
    const gone = await call('GET', `/api/editor-sessions/${saved.id}`, user.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'Session not found' });
  });

  it('hides another user’s session and needs a signed-in user', async () => {
    const saved = await create(user.token, {
      name: 'mine',
      component_type: 'magic-selector',
      data: samples['magic-selector'],
    });
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(method, `/api/editor-sessions/${saved.id}`, other.token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'Session not found' });
    }
    const put = await call('PUT', `/api/editor-sessions/${saved.id}`, other.token, { name: 'theirs' });
    expect(put.statusCode).toBe(404);
    const list = (await call('GET', '/api/editor-sessions', other.token)).json() as ListEditorSessionsReply;
    expect(list.data).toEqual([]);
    expect((await call('GET', '/api/editor-sessions', undefined)).statusCode).toBe(401);
    expect((await call('POST', '/api/editor-sessions', undefined, { name: 'x' })).statusCode).toBe(401);
    expect((await call('GET', '/api/editor-sessions/not-a-uuid', user.token)).statusCode).toBe(404);
  });

  it('pages 25 sessions 10 at a time, newest first, without duplicates, and filters by persona', async () => {
    const pager = await createTestUser(t.ctx.db);
    const persona = await createTestPersona(t.ctx.db, pager.id);
    for (let i = 0; i < 25; i += 1) {
      await create(pager.token, {
        name: `s${i}`,
        component_type: 'multi-composition',
        persona_id: i < 3 ? persona : undefined,
        data: samples['multi-composition'],
      });
    }
    await create(pager.token, {
      name: 'other type',
      component_type: 'magic-selector',
      data: samples['magic-selector'],
    });
    const seen: EditorSessionSummary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `component_type=multi-composition&limit=10${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await call('GET', `/api/editor-sessions?${q}`, pager.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as ListEditorSessionsReply;
      pages += 1;
      seen.push(...body.data);
      expect(body.pagination.has_more).toBe(pages < 3);
      cursor = body.pagination.next_cursor;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen.map((s) => s.id)).size).toBe(25);
    const times = seen.map((s) => Date.parse(s.updated_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(seen[0]).not.toHaveProperty('data');
    const scoped = (
      await call('GET', `/api/editor-sessions?persona_id=${persona}`, pager.token)
    ).json() as ListEditorSessionsReply;
    expect(scoped.data.map((s) => s.name).sort()).toEqual(['s0', 's1', 's2']);
  });
});

describe('autosave (one per user and tool)', () => {
  const url = '/api/editor-sessions/autosave/multi-image-canvas';
  const canvas = samples['multi-image-canvas'] as Record<string, unknown>;

  it('creates, replaces and reads back the one autosave, kept apart from sessions saved by hand', async () => {
    const owner = await createTestUser(t.ctx.db);
    expect((await call('GET', url, owner.token)).json()).toEqual({ success: true, data: null });
    const first = await call('PUT', url, owner.token, { data: canvas });
    expect(first.statusCode, first.body).toBe(200);
    const created = (first.json() as { data: EditorSession }).data;
    expect(created).toMatchObject({ name: 'Autosave', component_type: 'multi-image-canvas', autosave: true });
    // Normalised like a saved session (spec 4).
    expect((created.data.imageSequence as { videoStatus: string }[])[1]?.videoStatus).toBe('pending');

    const moved = { ...canvas, canvasImages: [{ id: 'i1', url: '/m/a.png', x: 400, y: 650, width: 300, height: 200 }] };
    // Two saves at once (two tabs) still leave one autosave.
    const [a, b] = await Promise.all([
      call('PUT', url, owner.token, { data: moved }),
      call('PUT', url, owner.token, { data: moved }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const read = await call('GET', url, owner.token);
    expect(read.statusCode).toBe(200);
    const latest = (read.json() as { data: EditorSession }).data;
    expect(latest.id).toBe(created.id);
    expect((latest.data.canvasImages as { x: number; y: number }[])[0]).toMatchObject({ x: 400, y: 650 });

    const manual = await create(owner.token, { name: 'By hand', component_type: 'multi-image-canvas', data: canvas });
    expect(manual.autosave).toBe(false);
    const list = (await call('GET', '/api/editor-sessions', owner.token)).json() as ListEditorSessionsReply;
    expect(list.data.map((s) => [s.name, s.autosave]).sort()).toEqual([
      ['Autosave', true],
      ['By hand', false],
    ]);

    expect((await call('DELETE', url, owner.token)).statusCode).toBe(200);
    expect((await call('GET', url, owner.token)).json()).toEqual({ success: true, data: null });
    expect((await call('DELETE', url, owner.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/editor-sessions/${manual.id}`, owner.token)).statusCode).toBe(200);
  });

  it('is the caller’s own: another user neither reads nor replaces it', async () => {
    const owner = await createTestUser(t.ctx.db);
    const stranger = await createTestUser(t.ctx.db);
    await call('PUT', url, owner.token, { data: canvas });
    expect((await call('GET', url, stranger.token)).json()).toEqual({ success: true, data: null });
    await call('PUT', url, stranger.token, { data: { ...canvas, movieScript: 'theirs' } });
    const mine = (await call('GET', url, owner.token)).json() as { data: EditorSession };
    expect(mine.data.data.movieScript).toBe('INT. ROOM');
  });

  it('needs a session and validates the type and data with the spec messages', async () => {
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('PUT', url, undefined, { data: canvas })).statusCode).toBe(401);
    expect((await call('DELETE', url)).statusCode).toBe(401);
    const unknown = await call('PUT', '/api/editor-sessions/autosave/paint', user.token, { data: {} });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'Unsupported component type: paint' });
    expect((await call('GET', '/api/editor-sessions/autosave/paint', user.token)).statusCode).toBe(400);
    const bad = await call('PUT', url, user.token, { data: { canvasImages: {}, canvasState: {}, imageSequence: [] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Invalid session data: canvasImages must be an array' });
  });
});

describe('unavailable storage (issue 21)', () => {
  it("answers 503 'Database setup required' while the sessions table is missing, and works again once it is back", async () => {
    const owner = await createTestUser(t.ctx.db);
    await t.ctx.db.execute(sql`ALTER TABLE editor_sessions RENAME TO editor_sessions_away`);
    try {
      for (const [method, url, body] of [
        ['GET', '/api/editor-sessions', undefined],
        [
          'POST',
          '/api/editor-sessions',
          { name: 'S', component_type: 'magic-selector', data: { baseImage: null, prompt: 'a hat', mode: 'inpaint' } },
        ],
        ['GET', '/api/editor-sessions/autosave/magic-selector', undefined],
      ] as const) {
        const res = await call(method, url, owner.token, body);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(503);
        expect(res.json()).toMatchObject({
          success: false,
          error: 'Database setup required',
          code: 'storage_unavailable',
        });
      }
    } finally {
      await t.ctx.db.execute(sql`ALTER TABLE editor_sessions_away RENAME TO editor_sessions`);
    }
    expect((await call('GET', '/api/editor-sessions', owner.token)).statusCode).toBe(200);
    // An ordinary failure keeps its own answer.
    expect((await call('GET', `/api/editor-sessions/${crypto.randomUUID()}`, owner.token)).statusCode).toBe(404);
  });
});
