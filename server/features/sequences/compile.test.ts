import { describe, expect, it } from 'vitest';
import { type ClipFacts, cutOf, planCompile, reencodeFilterGraph } from './compile.ts';

function clip(overrides: Partial<ClipFacts> & { width?: number; height?: number; audio?: boolean } = {}): ClipFacts {
  const { width = 640, height = 360, audio = true, ...rest } = overrides;
  return {
    file: '/tmp/x.mp4',
    probe: {
      formatName: 'mov,mp4',
      durationMs: 8_000,
      bitRate: null,
      video: { codec: 'h264', width, height, fps: 25, rotation: 0 },
      audio: audio ? { codec: 'aac', sampleRate: 48_000, channels: 2 } : null,
    },
    startTime: 0,
    duration: 5,
    ...rest,
  };
}

describe('cutOf', () => {
  it('keeps a window inside the clip and clamps one that runs past its end', () => {
    expect(cutOf(clip({ startTime: 1, duration: 2 }))).toEqual({ start: 1, duration: 2 });
    expect(cutOf(clip({ startTime: 6, duration: 5 }))).toEqual({ start: 6, duration: 2 });
    expect(cutOf(clip({ startTime: 20, duration: 5 }))).toEqual({ start: 7.9, duration: 0.1 });
  });
});

describe('planCompile', () => {
  it('copies streams when every clip matches and cuts start at 0', () => {
    const plan = planCompile([clip(), clip({ duration: 3 })]);
    expect(plan).toMatchObject({ streamCopy: true, layoutMatches: true, duration: 8 });
    expect(plan.target).toEqual({ width: 640, height: 360, fps: 25, sampleRate: 48_000, channels: 2 });
  });
  it('needs keyframes for cuts that start later', () => {
    expect(planCompile([clip({ startTime: 1 })])).toMatchObject({ streamCopy: false, layoutMatches: true });
    expect(planCompile([clip({ startTime: 1, keyframes: [0, 1, 2] })]).streamCopy).toBe(true);
  });
  it('re-encodes to the first clip’s size when sizes, audio or codecs differ', () => {
    const plan = planCompile([clip(), clip({ width: 320, height: 240 }), clip({ audio: false })]);
    expect(plan).toMatchObject({ streamCopy: false, layoutMatches: false });
    expect(plan.target).toMatchObject({ width: 640, height: 360 });
    const graph = reencodeFilterGraph([clip(), clip({ audio: false })], plan);
    expect(graph).toContain('anullsrc=r=48000:cl=stereo');
    expect(graph).toContain('concat=n=2:v=1:a=1');
  });
  it('rounds an odd first size to even', () => {
    expect(planCompile([clip({ width: 641, height: 361 })]).target).toMatchObject({ width: 642, height: 362 });
  });
});
