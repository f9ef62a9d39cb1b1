import { describe, expect, it } from 'vitest';
import { headingOfLine } from '../../../common/api/film.ts';
import { generateVideoBody } from '../../../common/api/generation.ts';
import { FILM_MESSAGES } from '../../../common/rules/film.ts';
import {
  applySequenceEvent,
  buildShotPrompt,
  charactersForAgent,
  defaultCinematography,
  defaultProduction,
  emptyConcept,
  emptyWizard,
  type FilmSequence,
  filmAssetMetadata,
  newCharacter,
  parseSavedWizard,
  type Screenplay,
  sequencesFromScreenplay,
  sequencesToStart,
  shotSeconds,
  videoRequestFor,
} from './model.ts';

const shot = (n: number, extra: Partial<Screenplay['acts'][0]['scenes'][0]['shots'][0]> = {}) => ({
  id: `shot-${n}`,
  index: n,
  type: 'close-up',
  shotType: 'close-up',
  cameraMovement: 'dolly in',
  description: `close-up ${n}`,
  prompt: `a keeper lights the lamp ${n}`,
  duration: 5,
  characters: [],
  ...extra,
});

const formatting = { alignment: 'left', indentInches: 1.5, widthInches: 6, uppercase: false } as const;
type Scene = Screenplay['acts'][0]['scenes'][0];
const sceneOf = (n: number, line: string, description: string, extra: Pick<Scene, 'elements' | 'shots'>): Scene => ({
  id: `scene-${n}`,
  sceneNumber: n,
  number: n,
  heading: headingOfLine(line, description),
  description,
  mood: 'tense',
  purpose: 'Test.',
  estimatedDuration: 5,
  ...extra,
});
const actOf = (n: number, title: string, pages: number, scenes: Scene[]) => ({
  id: `act-${n}`,
  actNumber: n,
  number: n,
  title,
  description: title,
  pageCount: pages,
  pages,
  plotPoints: [title],
  scenes,
});

const screenplay: Screenplay = {
  title: 'The Last Lighthouse',
  logline: 'A keeper decides.',
  runtimeMinutes: 90,
  estimatedRuntime: 90,
  totalPageCount: 90,
  characters: [],
  themes: ['duty'],
  writtenBy: 'test',
  version: '1.0',
  dateCreated: '2026-01-01T00:00:00.000Z',
  acts: [
    actOf(1, 'Setup', 23, [
      sceneOf(1, 'EXT. ISLAND - NIGHT', 'Storm.', {
        elements: [{ id: 'e1', type: 'action', content: 'Waves.', text: 'Waves.', formatting }],
        shots: [shot(1), shot(2, { duration: 12 })],
      }),
    ]),
    actOf(2, 'Confrontation', 45, [sceneOf(2, 'INT. LIGHTHOUSE - DAY', 'Calm.', { elements: [], shots: [shot(1)] })]),
  ],
};

const concept = { ...emptyConcept(), title: 'The Last Lighthouse', description: 'A keeper decides.' };

function build(previous: FilmSequence[] = []) {
  return sequencesFromScreenplay(screenplay, concept, defaultProduction(), defaultCinematography(), previous);
}

describe('buildShotPrompt', () => {
  it('joins the shot, its framing, the scene and the film look', () => {
    const prompt = buildShotPrompt(
      shot(1),
      { heading: headingOfLine('EXT. ISLAND - NIGHT') },
      { genre: 'thriller', tone: 'dark' },
      { colorGrading: 'noir', aspectRatio: '2.39:1' },
      { cameraType: 'handheld', lightingStyle: 'hard', colorPalette: 'cool' },
    );
    expect(prompt).toBe(
      'a keeper lights the lamp 1. close-up, dolly in camera movement. Scene: EXT. ISLAND - NIGHT. ' +
        'Cinematography: handheld camera, hard lighting, cool color palette, noir color grading, 2.39:1 frame. ' +
        'dark thriller film',
    );
  });

  it('falls back to the description and stays within the 4000-character prompt limit', () => {
    const long = buildShotPrompt(
      shot(1, { prompt: ' ', description: 'x'.repeat(5000) }),
      { heading: headingOfLine('H') },
      concept,
      defaultProduction(),
      defaultCinematography(),
    );
    expect(long.startsWith('xxx')).toBe(true);
    expect(long).toHaveLength(4000);
  });
});

describe('sequencesFromScreenplay', () => {
  it('makes one ready sequence per shot with the spec fields', () => {
    const sequences = build();
    expect(sequences.map((s) => s.id)).toEqual(['scene-1:shot-1', 'scene-1:shot-2', 'scene-2:shot-1']);
    expect(sequences[1]).toMatchObject({
      sceneId: 'scene-1',
      shotId: 'shot-2',
      actNumber: 1,
      sceneNumber: 1,
      shotIndex: 2,
      status: 'ready',
      duration: 8,
      shotType: 'close-up',
      cameraMovement: 'dolly in',
      veoTaskId: null,
      progress: 0,
      url: null,
      error: null,
      queued: false,
    });
    expect(sequences[2]?.actNumber).toBe(2);
  });

  it('keeps a shot that is under way or finished, and rebuilds failed and ready ones', () => {
    const [first, second, third] = build();
    if (!first || !second || !third) throw new Error('three sequences expected');
    const previous = [
      { ...first, status: 'completed' as const, url: '/v/1.mp4', assetId: 'a1' },
      { ...second, status: 'failed' as const, error: 'x' },
      { ...third, status: 'processing' as const, veoTaskId: 't3' },
    ];
    const next = build(previous);
    expect(next[0]).toBe(previous[0]);
    expect(next[1]?.status).toBe('ready');
    expect(next[2]).toBe(previous[2]);
  });
});

describe('shotSeconds', () => {
  it('rounds into Veo’s 1–8 s', () => {
    expect(shotSeconds(0.2)).toBe(1);
    expect(shotSeconds(4.6)).toBe(5);
    expect(shotSeconds(30)).toBe(8);
    expect(shotSeconds(Number.NaN)).toBe(5);
  });
});

describe('sequencesToStart', () => {
  const seq = (id: string, patch: Partial<FilmSequence>) => ({ ...(build()[0] as FilmSequence), id, ...patch });

  it('starts queued shots in order while fewer than two are running', () => {
    const list = [
      seq('a', { queued: true }),
      seq('b', { queued: true, status: 'failed' }),
      seq('c', { queued: true }),
      seq('d', {}),
    ];
    expect(sequencesToStart(list)).toEqual(['a', 'b']);
    expect(sequencesToStart([seq('x', { status: 'processing', veoTaskId: 't' }), ...list])).toEqual(['a']);
    expect(sequencesToStart([seq('x', { status: 'processing' }), seq('y', { status: 'generating' }), ...list])).toEqual(
      [],
    );
  });
});

describe('applySequenceEvent', () => {
  const ready = build()[0] as FilmSequence;
  const at = new Date('2026-01-02T03:04:05Z');

  it('follows the machine: generate, processing with progress 5 and the 180 s estimate, then completed', () => {
    const generating = applySequenceEvent({ ...ready, queued: true }, { type: 'generate' }, at);
    expect(generating).toMatchObject({ status: 'generating', queued: false });
    const processing = applySequenceEvent(generating, { type: 'started', taskId: 't1' }, at);
    expect(processing).toMatchObject({ status: 'processing', veoTaskId: 't1', progress: 5 });
    expect(processing.estimatedTimeRemaining).toBe(171);
    const done = applySequenceEvent(processing, { type: 'finished', status: 'completed', url: '/v.mp4' }, at);
    expect(done).toMatchObject({ status: 'completed', url: '/v.mp4', progress: 100, estimatedTimeRemaining: 0 });
    expect(done.generatedAt).toBe(at.toISOString());
  });

  it('fails on a safety block and on the time-out', () => {
    const processing = { ...ready, status: 'processing' as const, veoTaskId: 't', progress: 5 };
    expect(
      applySequenceEvent(processing, { type: 'finished', status: 'failed', message: 'No video was produced' }).error,
    ).toBe(FILM_MESSAGES.safetyBlocked);
    expect(applySequenceEvent(processing, { type: 'timed-out' })).toMatchObject({
      status: 'failed',
      error: FILM_MESSAGES.timedOut,
    });
  });

  it('returns the same object for an event the state ignores', () => {
    expect(applySequenceEvent(ready, { type: 'finished', status: 'completed', url: 'u' })).toBe(ready);
  });
});

describe('requests', () => {
  it('asks for veo-3 with enhancePrompt on and the production format, accepted by the server schema', () => {
    const sequence = build()[0] as FilmSequence;
    const body = videoRequestFor(sequence, { ...defaultProduction(), resolution: '8K', fps: 120 });
    expect(body).toMatchObject({ service: 'veo', model: 'veo-3', enhancePrompt: true, resolution: '8K', fps: 120 });
    expect(generateVideoBody.safeParse(body).success).toBe(true);
  });

  it('writes the spec’s film metadata keys', () => {
    const sequence = build()[1] as FilmSequence;
    expect(filmAssetMetadata(sequence, { title: 'T', genre: 'drama' })).toEqual({
      scene_id: 'scene-1',
      shot_id: 'shot-2',
      act_number: 1,
      scene_number: 1,
      shot_index: 2,
      concept_title: 'T',
      genre: 'drama',
      duration: 8,
    });
  });

  it('leaves empty character fields out for the film agent', () => {
    const [agent] = charactersForAgent([
      { ...newCharacter('c1'), name: ' Ada ', relationships: [{ characterId: 'c2', relationship: ' ' }] },
    ]);
    expect(agent).toMatchObject({ id: 'c1', name: 'Ada', role: 'supporting', relationships: [] });
    expect(agent?.personality).toBeUndefined();
  });
});

describe('parseSavedWizard', () => {
  it('falls back to the defaults for missing or broken data', () => {
    expect(parseSavedWizard(null)).toEqual(emptyWizard());
    expect(parseSavedWizard('{not json')).toEqual(emptyWizard());
    const wizard = parseSavedWizard(
      JSON.stringify({ step: 'nowhere', concept: { title: 7 }, production: { fps: 'x' } }),
    );
    expect(wizard.step).toBe('concept');
    expect(wizard.concept.title).toBe('');
    expect(wizard.production.fps).toBe(24);
    expect(wizard.production.resolution).toBe('4K');
  });

  it('round-trips a wizard and turns a request cut off by a reload into a retryable failure', () => {
    const sequences = build();
    const saved = {
      ...emptyWizard(),
      step: 'review',
      concept,
      characters: [{ ...newCharacter('c1'), name: 'Ada', role: 'protagonist' }],
      screenplay,
      sequences: [
        { ...sequences[0], status: 'processing', veoTaskId: 't1', progress: 41 },
        { ...sequences[1], status: 'generating', queued: true },
        { ...sequences[2], status: 'completed', url: null },
      ],
    };
    const wizard = parseSavedWizard(JSON.stringify(saved));
    expect(wizard.step).toBe('review');
    expect(wizard.characters[0]).toMatchObject({ name: 'Ada', role: 'protagonist' });
    expect(wizard.screenplay?.acts).toHaveLength(2);
    expect(wizard.sequences[0]).toMatchObject({ status: 'processing', veoTaskId: 't1', progress: 41 });
    expect(wizard.sequences[1]).toMatchObject({
      status: 'failed',
      error: FILM_MESSAGES.filmSequenceFailed,
      queued: false,
    });
    expect(wizard.sequences[2]?.status).toBe('ready');
  });

  it('reads a screenplay saved when headings were one slug line into the heading object', () => {
    const old = structuredClone(screenplay) as unknown as { acts: Array<{ scenes: Array<{ heading: unknown }> }> };
    for (const act of old.acts) for (const scene of act.scenes) scene.heading = 'INT. LIGHTHOUSE - NIGHT';
    const wizard = parseSavedWizard(JSON.stringify({ ...emptyWizard(), screenplay: old }));
    expect(wizard.screenplay?.acts[0]?.scenes[0]?.heading).toEqual({
      location: 'INT. LIGHTHOUSE',
      timeOfDay: 'NIGHT',
      description: '',
    });
  });
});
