// Issue 17: a persona id given to another feature must name a persona the caller may use — their own or a
// public one. Another user's private persona and an unknown id answer 404 with the personas message,
// before any credit is reserved; nothing is stored.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EditorSession, ListEditorSessionsReply } from '../../../common/api/editor-sessions.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets, creditTransactions, editorSessions, tasks } from '../../db/schema/index.ts';
import {
  authHeader,
  createTestPersona,
  createTestUser,
  creditsOf,
  solidPng,
  type TestUser,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let own: string;
let strangersPrivate: string;
let strangersPublic: string;
let png: string;

function call(method: 'GET' | 'POST' | 'PUT', url: string, user: TestUser, payload?: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(user.token) });
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createTestUser(t.ctx.db, { credits: 500 });
  stranger = await createTestUser(t.ctx.db, { credits: 500 });
  own = await createTestPersona(t.ctx.db, owner.id);
  strangersPrivate = await createTestPersona(t.ctx.db, stranger.id);
  strangersPublic = await createTestPersona(t.ctx.db, stranger.id, { isPublic: true });
  png = (await solidPng(64, 64, '#3366cc')).toString('base64');
});
afterAll(async () => {
  await t?.close();
});

/** What the owner may not use: another user's private persona and an id no persona has. */
const REFUSED = ['another user’s private persona', 'an unknown id'] as const;
const idOf = (kind: (typeof REFUSED)[number]) => (kind === REFUSED[0] ? strangersPrivate : randomUUID());

/** 404 with the personas message. */
function expectRefused(res: Awaited<ReturnType<typeof call>>) {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json()).toMatchObject({ success: false, error: MESSAGES.personas.notFound });
}

/** The owner's balance, ledger rows and tasks, to compare before and after refused calls. */
async function ownersSpending() {
  const [balance, ledger, queued] = await Promise.all([
    creditsOf(t.ctx.db, owner.id),
    t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, owner.id)),
    t.ctx.db.select().from(tasks).where(eq(tasks.userId, owner.id)),
  ]);
  return { balance, ledgerRows: ledger.length, tasks: queued.length };
}

describe('generation routes (POST /api/ai/generate/image|video)', () => {
  it.each(REFUSED)('refuses %s before reserving anything', async (kind) => {
    const personaId = idOf(kind);
    const before = await ownersSpending();
    const image = { prompt: 'a portrait in a park', size: '512x288', numberOfImages: 1, persona_id: personaId };
    expectRefused(await call('POST', '/api/ai/generate/image', owner, image));
    expectRefused(await call('POST', '/api/ai/generate/video', owner, { prompt: 'a walk', persona_id: personaId }));
    expect(await ownersSpending()).toEqual(before);
  });

  it('accepts the user’s own persona and a public one, and records it on the asset', async () => {
    for (const personaId of [own, strangersPublic]) {
      const res = await call('POST', '/api/ai/generate/image', owner, {
        prompt: 'a portrait in a park',
        size: '512x288',
        numberOfImages: 1,
        persona_id: personaId,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().creditsUsed).toBe(LOCAL_PREVIEW_PRICES.image);
    }
    const saved = await t.ctx.db.select().from(assets).where(eq(assets.userId, owner.id));
    expect(saved.map((a) => a.personaId)).toEqual(expect.arrayContaining([own, strangersPublic]));
    expect(saved.map((a) => a.personaId)).not.toContain(strangersPrivate);
  });
});

describe('canvas images (NanoBana), Magic Selector and multi-reference', () => {
  it.each(REFUSED)('refuse %s before reserving anything', async (kind) => {
    const personaId = idOf(kind);
    const before = await ownersSpending();
    expectRefused(
      await call('POST', '/api/nanobana/edit-image', owner, { prompt: 'warmer', imageBuffer: png, personaId }),
    );
    expectRefused(
      await call('POST', '/api/nanobana/multi-image-composition', owner, {
        prompt: 'side by side',
        imageBuffers: [png, png],
        personaId,
      }),
    );
    expectRefused(await call('POST', '/api/nanobana/generate-text-to-image', owner, { prompt: 'a beach', personaId }));
    expectRefused(
      await call('POST', '/api/ai/generate/inpaint', owner, {
        baseImage: png,
        maskImage: png,
        prompt: 'a red hat',
        personaId,
      }),
    );
    expectRefused(
      await call('POST', '/api/ai/generate/multi-reference', owner, {
        prompt: 'blend',
        referenceImages: [{ url: `data:image/png;base64,${png}` }],
        personaId,
      }),
    );
    expect(await ownersSpending()).toEqual(before);
  });

  it('accept the user’s own persona', async () => {
    const res = await call('POST', '/api/nanobana/generate-text-to-image', owner, {
      prompt: 'a beach',
      personaId: own,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('assets (POST /api/ai/assets)', () => {
  it.each(REFUSED)('refuse %s', async (kind) => {
    const personaId = idOf(kind);
    const res = await call('POST', '/api/ai/assets', owner, {
      type: 'image',
      url: '/api/images/none.png',
      persona_id: personaId,
    });
    expectRefused(res);
  });
});

describe('editor sessions', () => {
  const session = (personaId: string | null) => ({
    name: 'Canvas',
    component_type: 'magic-selector',
    data: { baseImage: null, prompt: 'a hat', mode: 'inpaint', result: null },
    persona_id: personaId,
  });

  it.each(REFUSED)('refuse %s on create and on update; nothing is stored', async (kind) => {
    const personaId = idOf(kind);
    const before = await t.ctx.db.select().from(editorSessions).where(eq(editorSessions.userId, owner.id));
    expectRefused(await call('POST', '/api/editor-sessions', owner, session(personaId)));
    expect(await t.ctx.db.select().from(editorSessions).where(eq(editorSessions.userId, owner.id))).toHaveLength(
      before.length,
    );

    const created = await call('POST', '/api/editor-sessions', owner, session(own));
    expect(created.statusCode, created.body).toBe(200);
    const { id } = (created.json() as { data: EditorSession }).data;
    expectRefused(await call('PUT', `/api/editor-sessions/${id}`, owner, { persona_id: personaId }));
    const [row] = await t.ctx.db.select().from(editorSessions).where(eq(editorSessions.id, id));
    expect(row.personaId).toBe(own);
  });

  it('accept a public persona and clearing it', async () => {
    const created = await call('POST', '/api/editor-sessions', owner, session(strangersPublic));
    expect(created.statusCode, created.body).toBe(200);
    const { id } = (created.json() as { data: EditorSession }).data;
    const cleared = await call('PUT', `/api/editor-sessions/${id}`, owner, { persona_id: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((cleared.json() as { data: EditorSession }).data.persona_id).toBeNull();
  });

  it('filter the list by persona within the user’s own sessions only', async () => {
    const theirs = await call('POST', '/api/editor-sessions', stranger, session(strangersPrivate));
    expect(theirs.statusCode, theirs.body).toBe(200);
    const probe = await call('GET', `/api/editor-sessions?persona_id=${strangersPrivate}`, owner);
    expect(probe.statusCode).toBe(200);
    expect((probe.json() as ListEditorSessionsReply).data).toEqual([]);
    const mine = await call('GET', `/api/editor-sessions?persona_id=${own}`, owner);
    const listed = (mine.json() as ListEditorSessionsReply).data;
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) expect(s.persona_id).toBe(own);
  });
});
