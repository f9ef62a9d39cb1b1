// The movie agent on a prose script (no slug lines): scenes split by the script's own places and times,
// every sentence's subject kept, the camera taken from each shot's fields, and no style text that the
// script did not give (issue 30 point 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MovieAgentReply } from '../../../common/api/sequences.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sharedShingles } from '../../test/shingles.ts';

let t: TestApp;
let user: TestUser;

async function agent(movieScript: string): Promise<MovieAgentReply> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/movie-agent',
    payload: { movieScript, images: [] },
    headers: authHeader(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MovieAgentReply;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 10 });
});
afterAll(async () => {
  await t?.close();
});

const DRAMA =
  'A courier on a red bicycle races through Tokyo at noon, weaving past taxis. She stops at a crowded crossing and checks the package. ' +
  'At dusk she walks away along a bridge over the river as the camera dollies out.';
const COMMERCIAL =
  'Introducing the new Aurora headphones, sealed in a matte black case. A runner laces her shoes in a quiet park before sunrise. ' +
  'She presses play and the noise of traffic melts into music. Aurora headphones, available today.';
const sceneOf = (id: string) => Number(/^scene-(\d+)-/.exec(id)?.[1]);

describe('POST /api/ai/movie-agent on prose', () => {
  it('splits by place and time, keeping Tokyo at noon and the bridge at dusk in their own scenes', async () => {
    const reply = await agent(DRAMA);
    expect(reply.analysis.sceneCount).toBeGreaterThanOrEqual(2);
    const tokyo = reply.videoPrompts.filter((p) => /Tokyo/.test(p.prompt) && /noon/.test(p.prompt));
    const bridge = reply.videoPrompts.filter((p) => /bridge/.test(p.prompt) && /dusk/.test(p.prompt));
    expect(tokyo.length).toBeGreaterThan(0);
    expect(bridge.length).toBeGreaterThan(0);
    expect(sceneOf(tokyo[0]?.id ?? '')).not.toBe(sceneOf(bridge[0]?.id ?? ''));
    // Every sentence's key nouns reach some prompt.
    const all = reply.videoPrompts.map((p) => p.prompt).join(' ');
    for (const noun of ['courier', 'bicycle', 'taxis', 'crossing', 'package', 'bridge', 'river'])
      expect(all).toContain(noun);
    // The bridge at dusk is never lit by noon daylight.
    expect(bridge[0]?.prompt).not.toMatch(/daylight/i);
  });

  it('writes the camera the shot fields name and no stock motion', async () => {
    const reply = await agent(DRAMA);
    for (const p of reply.videoPrompts) {
      expect(p.prompt).toContain(p.cameraMovement);
      expect(p.prompt.toLowerCase()).toContain(p.shotType.toLowerCase());
      expect(p.prompt).not.toMatch(/slow cinematic pan|orbit around the product|anamorphic|24 fps/i);
    }
    const bridge = reply.videoPrompts.find((p) => /bridge/.test(p.prompt));
    expect(bridge?.cameraMovement).toBe('dolly out');
    const crane = await agent('The camera cranes up over the harbour at dawn as the ferry leaves.');
    expect(crane.videoPrompts[0]?.cameraMovement).toBe('crane up');
    expect(crane.videoPrompts[0]?.prompt).toContain('crane up');
  });

  it('carries the subject to sentences that say only "she"', async () => {
    const reply = await agent(DRAMA);
    const crossing = reply.videoPrompts.find((p) => /crossing/.test(p.prompt));
    expect(crossing?.prompt).toMatch(/courier/i);
  });

  it('gives a commercial and a drama few shared fragments (< 20 % of 4-word shingles)', async () => {
    const drama = (await agent(DRAMA)).videoPrompts.map((p) => p.prompt).join(' ');
    const commercial = (await agent(COMMERCIAL)).videoPrompts.map((p) => p.prompt).join(' ');
    expect(sharedShingles(drama, commercial)).toBeLessThan(0.2);
    expect(commercial).toContain('Aurora');
    expect(commercial).not.toMatch(/orbit/);
  });
});
