import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../platform/media/probe.ts';
import { testToolConfig } from '../test-media.ts';
import { LocalAudioEngine } from './audio.ts';
import { planMusic, renderMusic } from './music.ts';

const engine = new LocalAudioEngine(testToolConfig);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-audio-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function probe(data: Buffer, name: string) {
  const file = join(dir, name);
  await writeFile(file, data);
  return probeMedia(testToolConfig, file);
}

describe('local audio engine', () => {
  it('synthesises 15 s of music as MP3 within 0.2 s of the request', async () => {
    const r = await engine.music({
      model: 'suno-v3.5',
      prompt: 'energetic festival track',
      durationSeconds: 15,
      genre: 'Electronic',
      mood: 'upbeat',
      seed: 1,
    });
    const p = await probe(r.data, 'music.mp3');
    expect(p.formatName).toBe('mp3');
    expect(p.audio?.codec).toBe('mp3');
    expect(Math.abs((p.durationMs ?? 0) / 1000 - 15)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(r.durationSeconds - 15)).toBeLessThanOrEqual(0.2);
    expect(r.mimeType).toBe('audio/mpeg');
    expect(r.metadata).toMatchObject({
      engine: 'local',
      model: 'suno-v3.5',
      genre: 'electronic',
      mood: 'upbeat',
      instruments: ['drums', 'bass', 'pad', 'arp'],
    });
  });

  it('plans tempo, key and instruments from genre, mood and the request', () => {
    const calm = planMusic({ prompt: '', genre: 'Ambient', mood: 'calm', seed: 1 });
    const upbeat = planMusic({ prompt: '', genre: 'Ambient', mood: 'upbeat', seed: 1 });
    expect(upbeat.bpm).toBeGreaterThan(calm.bpm);
    expect(planMusic({ prompt: 'a 96 bpm groove', genre: 'Pop', seed: 1 }).bpm).toBe(96);
    expect(planMusic({ prompt: '', genre: 'Hip Hop', seed: 2 }).voices).toEqual(['drums', 'bass', 'piano']);
    const rock = planMusic({
      prompt: '',
      genre: 'Rock',
      mood: 'epic',
      seed: 2,
      instruments: ['Guitar', 'Drums', 'kazoo'],
    });
    expect(rock.voices).toEqual(['guitar', 'drums']);
    expect(rock.instrumentsIgnored).toEqual(['kazoo']);
    expect(rock.scale).toBe('minor');
  });

  it('renders deterministic, non-silent PCM that differs by genre', () => {
    const plan = planMusic({ prompt: '', genre: 'Cinematic', mood: 'epic', seed: 9 });
    const a = renderMusic(plan, 3, 9);
    const b = renderMusic(plan, 3, 9);
    expect(a.left.length).toBe(3 * 44_100);
    expect(Buffer.from(a.left.buffer).equals(Buffer.from(b.left.buffer))).toBe(true);
    const rms = Math.sqrt(a.left.reduce((s, v) => s + v * v, 0) / a.left.length);
    expect(rms).toBeGreaterThan(0.02);
    const rock = renderMusic(planMusic({ prompt: '', genre: 'Rock', mood: 'epic', seed: 9 }), 3, 9);
    expect(Buffer.from(rock.left.buffer).equals(Buffer.from(a.left.buffer))).toBe(false);
  });

  it('speaks text with espeak-ng (WASM) as MP3, leaving process.exitCode alone', async () => {
    const before = process.exitCode;
    const r = await engine.voice({
      model: 'voice',
      text: 'Welcome to GenPro Studio. Your campaign is ready.',
      voice: 'female',
      language: 'English',
    });
    expect(process.exitCode).toBe(before);
    expect(r.data.length).toBeGreaterThan(5000);
    const p = await probe(r.data, 'voice.mp3');
    expect(p.audio?.codec).toBe('mp3');
    expect(r.durationSeconds).toBeGreaterThan(1.5);
    expect(r.metadata).toMatchObject({ engine: 'local', voice: 'en-us+f3', language: 'en-us' });
    const french = await engine.voice({ model: 'voice', text: 'Bonjour', language: 'French', voice: 'narrator' });
    expect(french.metadata.voice).toBe('fr-fr+announcer');
    const unknown = await engine.voice({ model: 'voice', text: '-- hello', language: 'xx-unknown' });
    expect(unknown.metadata.voice).toMatch(/^en-us\+/);
    expect(process.exitCode).toBe(before);
    await expect(engine.voice({ model: 'voice', text: '   ' })).rejects.toMatchObject({ status: 400 });
  });

  it('rejects impossible music durations', async () => {
    await expect(engine.music({ model: 'suno-v3.5', prompt: '', durationSeconds: 0 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(engine.music({ model: 'suno-v3.5', prompt: '', durationSeconds: 10_000 })).rejects.toMatchObject({
      status: 400,
    });
  });
});
