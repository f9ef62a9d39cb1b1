import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import type { Persona, PersonaTaskReply } from '../../../common/api/personas.ts';
import type { WorkspaceItem } from '../../../common/api/workspace.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  authHeader,
  createTestUser,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const M = MESSAGES.personas;
const URL = '/api/campaign/workspace';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let persona: Persona;
let othersPersona: Persona;
let video: Asset;
let othersVideo: Asset;
let image: Asset;

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

async function createPersona(token: string, name: string): Promise<Persona> {
  const res = await call('POST', '/api/personas', token, { name, description: `${name} for the workspace tests` });
  expect(res.statusCode, res.body).toBe(200);
  const reply = res.json() as PersonaTaskReply;
  await waitForTask(t.ctx.db, reply.taskId, { timeoutMs: 90_000 });
  return (await call('GET', `/api/personas/${reply.data.id}`, token)).json().data as Persona;
}

async function registerAsset(token: string, userId: string, kind: 'video' | 'image'): Promise<Asset> {
  let stored: { url: string };
  if (kind === 'video') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-ws-'));
    try {
      const clip = await makeTestClip(t.config, dir, { seconds: 1, width: 160, height: 90, fps: 10 });
      stored = await storeUpload(t.ctx, userId, clip, 'video/mp4', 'mp4');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } else {
    stored = await storeUpload(t.ctx, userId, await solidPng(64, 64, '#884422'), 'image/png', 'png');
  }
  const res = await call('POST', '/api/ai/assets', token, { type: kind, url: stored.url, prompt: `a ${kind}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Asset;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 200 });
  other = await createTestUser(t.ctx.db, { credits: 200 });
  [persona, othersPersona] = await Promise.all([
    createPersona(user.token, 'Wendy'),
    createPersona(other.token, 'Otto'),
  ]);
  video = await registerAsset(user.token, user.id, 'video');
  othersVideo = await registerAsset(other.token, other.id, 'video');
  image = await registerAsset(user.token, user.id, 'image');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('campaign workspace', () => {
  it('answers 401 without a session', async () => {
    expect((await call('GET', URL)).statusCode).toBe(401);
    expect((await call('POST', URL, undefined, { assetId: persona.id, assetType: 'persona' })).statusCode).toBe(401);
    expect((await call('DELETE', `${URL}?clear_all=true`)).statusCode).toBe(401);
  });

  it('starts empty', async () => {
    const res = await call('GET', URL, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [] });
  });

  it('adds a persona and a video with their summaries, and refuses duplicates with 409', async () => {
    const add = await call('POST', URL, user.token, {
      assetId: persona.id,
      assetType: 'persona',
      campaignId: 'spring-launch',
      metadata: { note: 'lead' },
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json()).toMatchObject({
      success: true,
      message: M.workspaceAdded,
      data: {
        assetId: persona.id,
        assetType: 'persona',
        campaignId: 'spring-launch',
        metadata: { note: 'lead' },
        persona: { id: persona.id, name: 'Wendy', status: 'ready', avatar: persona.avatar },
        asset: null,
      },
    });
    const again = await call('POST', URL, user.token, { assetId: persona.id, assetType: 'persona' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This persona is already added to the campaign workspace.');

    const addVideo = await call('POST', URL, user.token, { assetId: video.id, assetType: 'video' });
    expect(addVideo.statusCode, addVideo.body).toBe(200);
    expect(addVideo.json().data).toMatchObject({
      assetType: 'video',
      campaignId: null,
      persona: null,
      asset: { id: video.id, url: video.url, prompt: 'a video' },
    });
    const videoAgain = await call('POST', URL, user.token, { assetId: video.id, assetType: 'video' });
    expect(videoAgain.statusCode).toBe(409);
    expect(videoAgain.json().error).toBe(M.videoAlreadyInWorkspace);

    const list = (await call('GET', URL, user.token)).json().data as WorkspaceItem[];
    expect(list.map((i) => i.assetId)).toEqual([video.id, persona.id]);
    // The persona now counts one campaign use.
    expect((await call('GET', `/api/personas/${persona.id}`, user.token)).json().data.usage_count).toBe(1);
    // Other users' workspaces are separate.
    expect((await call('GET', URL, other.token)).json().data).toEqual([]);
  });

  it('refuses other users’ personas and videos (404), non-video assets and bad types (400)', async () => {
    const foreignPersona = await call('POST', URL, user.token, { assetId: othersPersona.id, assetType: 'persona' });
    expect(foreignPersona.statusCode).toBe(404);
    const foreignVideo = await call('POST', URL, user.token, { assetId: othersVideo.id, assetType: 'video' });
    expect(foreignVideo.statusCode).toBe(404);
    const unknown = await call('POST', URL, user.token, { assetId: 'nope', assetType: 'video' });
    expect(unknown.statusCode).toBe(404);
    const notVideo = await call('POST', URL, user.token, { assetId: image.id, assetType: 'video' });
    expect(notVideo.statusCode).toBe(400);
    expect(notVideo.json().error).toBe(M.workspaceVideoOnly);
    const badType = await call('POST', URL, user.token, { assetId: image.id, assetType: 'image' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error).toBe(M.assetTypeInvalid);
    const noId = await call('POST', URL, user.token, { assetType: 'persona' });
    expect(noId.statusCode).toBe(400);
  });

  it('removes one item by asset_id, answers 404 for items not there, and 400 without a target', async () => {
    expect((await call('DELETE', URL, user.token)).statusCode).toBe(400);
    expect((await call('DELETE', URL, user.token)).json().error).toBe(M.workspaceNeedsTarget);
    const missing = await call('DELETE', `${URL}?asset_id=${othersPersona.id}`, user.token);
    expect(missing.statusCode).toBe(404);
    const foreign = await call('DELETE', `${URL}?asset_id=${video.id}`, other.token);
    expect(foreign.statusCode).toBe(404);
    const res = await call('DELETE', `${URL}?asset_id=${video.id}`, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, removed: 1, message: M.workspaceRemoved });
    expect(((await call('GET', URL, user.token)).json().data as WorkspaceItem[]).map((i) => i.assetId)).toEqual([
      persona.id,
    ]);
  });

  it('clears everything with clear_all=true, leaving other users alone', async () => {
    await call('POST', URL, user.token, { assetId: video.id, assetType: 'video' });
    await call('POST', URL, other.token, { assetId: othersPersona.id, assetType: 'persona' });
    const res = await call('DELETE', `${URL}?clear_all=true`, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ removed: 2, message: M.workspaceCleared });
    expect((await call('GET', URL, user.token)).json().data).toEqual([]);
    expect((await call('GET', URL, other.token)).json().data).toHaveLength(1);
  });

  it('drops items whose persona or video is deleted', async () => {
    await call('POST', URL, user.token, { assetId: persona.id, assetType: 'persona' });
    await call('POST', URL, user.token, { assetId: video.id, assetType: 'video' });
    expect((await call('DELETE', `/api/ai/assets/${video.id}`, user.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/personas/${persona.id}`, user.token)).statusCode).toBe(200);
    expect((await call('GET', URL, user.token)).json().data).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the persona and workspace calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const route of [
      '/api/personas',
      '/api/personas/{id}',
      '/api/personas/{id}/update-images',
      '/api/personas/{id}/regenerate',
      '/api/personas/{id}/video',
      '/api/personas/{id}/ugc-video',
      '/api/personas/{id}/image',
      '/api/campaign/workspace',
    ]) {
      expect(paths, route).toContain(route);
    }
  });
});
