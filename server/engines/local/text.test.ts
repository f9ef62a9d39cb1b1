import { describe, expect, it } from 'vitest';
import { filmScreenplayDraft } from '../../../common/api/film.ts';
import { enhancePrompt, LocalTextEngine } from './text.ts';

const engine = new LocalTextEngine();

describe('local text engine', () => {
  it('enhances prompts deterministically, keeping the subject', async () => {
    const a = await engine.complete({ purpose: 'prompt-enhancement', prompt: 'a red fox in a snowy forest at sunset' });
    const b = await engine.complete({ purpose: 'prompt-enhancement', prompt: 'a red fox in a snowy forest at sunset' });
    expect(a.text).toBe(b.text);
    expect(a.text.startsWith('a red fox in a snowy forest at sunset, ')).toBe(true);
    expect(a.text).toContain('golden-hour');
    expect(a.text).toContain('colour palette of red');
    expect(a.metadata).toMatchObject({ engine: 'local', purpose: 'prompt-enhancement' });
    expect(a.json).toMatchObject({
      analysis: { subject: 'a red fox in a snowy forest at sunset', scene: 'forest', timeOfDay: 'sunset' },
    });
  });

  it('answers a prompt-enhancement JSON schema by its property names', async () => {
    const r = await engine.complete({
      purpose: 'prompt-enhancement',
      prompt: 'a castle on a hill at night',
      jsonSchema: {
        name: 'prompt_enhancement',
        schema: {
          type: 'object',
          properties: {
            enhanced_prompt: { type: 'string' },
            subject: { type: 'string' },
            mood: { type: ['string', 'null'] },
            additions: { type: 'array', items: { type: 'string' } },
          },
          required: ['enhanced_prompt'],
        },
      },
      context: { kind: 'image', style: null },
    });
    const json = r.json as {
      enhanced_prompt: string;
      subject: string;
      additions: string[];
      analysis: { timeOfDay: string };
    };
    expect(json.enhanced_prompt).toBe(r.text);
    expect(json.subject).toBe('a castle on a hill at night');
    expect(json.additions.length).toBeGreaterThan(2);
    expect(json.analysis.timeOfDay).toBe('night');
  });

  it('adds phrases by what the prompt lacks and by context', () => {
    const portrait = enhancePrompt('portrait of a woman', { style: 'cinematic' });
    expect(portrait.enhancedPrompt).toContain('85mm');
    expect(portrait.enhancedPrompt).toContain('cinematic colour grading');
    const lit = enhancePrompt('portrait of a woman, dramatic lighting, shot on 50mm lens, highly detailed');
    expect(lit.analysis.addedPhrases.some((p) => p.includes('85mm'))).toBe(false);
    expect(lit.analysis.addedPhrases).not.toContain('highly detailed, crisp focus, balanced composition');
    const video = enhancePrompt('a product bottle on a table', { mediaType: 'video' });
    expect(video.enhancedPrompt).toContain('orbit');
    expect(enhancePrompt('city at night').enhancedPrompt).not.toBe(enhancePrompt('beach at dawn').enhancedPrompt);
  });

  it('writes screenplays, movie-agent shot lists and campaign plans with real structure', async () => {
    const sp = await engine.complete({
      purpose: 'screenplay',
      prompt: 'a detective in a neon city',
      context: { genre: 'thriller', tone: 'dark', targetDuration: 90 },
    });
    // The film writer's draft (checked against common/api/film.ts filmScreenplayDraft by the film agent).
    const screenplay = filmScreenplayDraft.parse(sp.json);
    expect(screenplay.acts.map((a) => a.title)).toEqual(['Setup', 'Confrontation', 'Resolution']);
    expect(screenplay.themes).toEqual(['truth', 'paranoia']);
    expect(screenplay.acts.every((a) => a.scenes.length > 0 && a.scenes.every((s) => s.shots.length >= 2))).toBe(true);
    expect(JSON.parse(sp.text)).toEqual(sp.json);

    const ma = await engine.complete({
      purpose: 'movie-agent',
      prompt:
        'INT. LAB - NIGHT\nThe scientist opens the box. Light floods out.\n\nEXT. ROOFTOP - DAWN\nShe watches the city wake.',
    });
    const plan = ma.json as {
      sceneCount: number;
      scenes: Array<{ heading: string; shots: Array<{ durationSeconds: number; prompt: string }> }>;
    };
    expect(plan.sceneCount).toBe(2);
    expect(plan.scenes[0].heading).toBe('INT. LAB - NIGHT');
    expect(plan.scenes[0].shots).toHaveLength(2);
    expect(plan.scenes.flatMap((s) => s.shots).every((s) => s.durationSeconds >= 4 && s.durationSeconds <= 8)).toBe(
      true,
    );

    const cp = await engine.complete({
      purpose: 'campaign-plan',
      prompt: 'Summer launch',
      context: {
        platforms: ['instagram', 'tiktok'],
        duration: '2 weeks',
        budget: '$1K - $5K',
        targetAudience: { age: 22 },
      },
    });
    const campaign = cp.json as {
      durationDays: number;
      schedule: Array<{ platform: string; posts: number }>;
      audience: string;
      estimatedReach: number;
    };
    expect(campaign.durationDays).toBe(14);
    expect(campaign.schedule.map((s) => s.platform)).toEqual(['instagram', 'tiktok']);
    expect(campaign.schedule[0].posts).toBe(8);
    expect(campaign.audience).toBe('Gen Z');
    expect(campaign.estimatedReach).toBeGreaterThan(0);
  });

  it('fills a JSON schema and streams the complete text in chunks', async () => {
    const r = await engine.complete({
      prompt: 'sunset beach',
      jsonSchema: {
        name: 'x',
        schema: {
          type: 'object',
          properties: {
            enhancedPrompt: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
            score: { type: 'number' },
          },
        },
      },
    });
    expect(r.json).toMatchObject({ enhancedPrompt: expect.stringContaining('sunset beach'), score: 1 });
    const request = { purpose: 'prompt-enhancement', prompt: 'a lighthouse in a storm' };
    const chunks: string[] = [];
    for await (const chunk of engine.stream(request)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe((await engine.complete(request)).text);
  });
});
