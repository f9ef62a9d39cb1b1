import { describe, expect, it } from 'vitest';
import { previewSummary, readNegativeEffects, readPromptEffects } from './prompt-effects.ts';

const ids = (prompt: string) => readPromptEffects(prompt).effects.map((e) => e.id);

describe('readPromptEffects', () => {
  it('reads weather, season and time of day', () => {
    const plan = readPromptEffects('snowy winter evening');
    expect(plan.effects.map((e) => e.id)).toEqual(['snow', 'winter', 'evening']);
    expect(plan.applied).toEqual(['snowy', 'winter', 'evening']);
    expect(plan.notApplied).toEqual([]);
    expect(ids('hot desert noon')).toEqual(['noon', 'hot']);
    expect(ids('a foggy autumn morning')).toEqual(['fog', 'morning', 'autumn']);
  });

  it('lists what it cannot do: new objects, removals without a marked region', () => {
    const dog = readPromptEffects('add a dog');
    expect(dog.effects).toEqual([]);
    expect(dog.notApplied).toEqual(['add a dog']);
    const mixed = readPromptEffects('make it a snowy evening with a dog on the left');
    expect(mixed.applied).toEqual(['snowy', 'evening']);
    expect(mixed.notApplied).toEqual(['a dog on the left']);
    const remove = readPromptEffects('remove the yellow circle');
    expect(remove.effects).toEqual([]);
    expect(remove.notApplied).toEqual(['remove the yellow circle']);
    expect(remove.removals).toEqual(['remove the yellow circle']);
    expect(readPromptEffects('remove the yellow circle', { hasRegion: true }).effects.map((e) => e.id)).toEqual([
      'removeRegion',
    ]);
  });

  it('tints with a colour word outside a removal, once, and not in black and white', () => {
    const tint = readPromptEffects('give it a purple glow');
    expect(tint.effects.map((e) => e.id)).toEqual(['relight', 'tint']);
    expect(tint.applied).toContain('purple');
    expect(ids('black and white, red')).toEqual(['blackAndWhite']);
    const sky = readPromptEffects('blue sky, remove the red car');
    expect(sky.effects.map((e) => e.id)).toEqual(['tint']);
    expect(sky.notApplied).toEqual(['sky', 'remove the red car']);
  });

  it('reads style, mood, crop and sharpness words, longest phrase first', () => {
    expect(ids('golden hour')).toEqual(['sunset']);
    expect(ids('zoom in, watercolor painting, sharpen')).toEqual(['zoomIn', 'sharpen', 'painting']);
    expect(ids('gloomy and blurry')).toEqual(['gloomy', 'blur']);
  });

  it('reads Arabic words with the article and prefixes', () => {
    const plan = readPromptEffects('مساء شتوي مع الثلج');
    expect(plan.effects.map((e) => e.id)).toEqual(['snow', 'winter', 'evening']);
    expect(readPromptEffects('أزل الدائرة الصفراء').removals).toHaveLength(1);
  });
});

describe('readNegativeEffects', () => {
  it('counters defects and leaves objects', () => {
    const plan = readNegativeEffects('blurry, noisy, no people');
    expect(plan.effects.map((e) => e.id)).toEqual(['sharpen', 'denoise']);
    expect(plan.applied).toEqual(['not blurry', 'not noisy']);
    expect(plan.notApplied).toEqual(['people']);
    expect(readNegativeEffects('red').applied).toEqual(['not red']);
    expect(readNegativeEffects(undefined).effects).toEqual([]);
  });
});

describe('previewSummary', () => {
  it('says what was applied and what needs an AI engine', () => {
    const plan = readPromptEffects('winter evening, add a dog');
    expect(previewSummary(plan.applied, plan.notApplied, plan.removals).note).toBe(
      'Local preview applied: winter, evening. Not applied: "add a dog" — needs an AI engine.',
    );
    const remove = readPromptEffects('remove the yellow circle');
    expect(previewSummary(remove.applied, remove.notApplied, remove.removals, 'automatic enhance').note).toBe(
      'Local preview applied nothing from the prompt (automatic enhance only). Not applied: "remove the yellow circle" — mark the region with the Magic Selector, or use an AI engine.',
    );
  });
});
