import { describe, expect, it } from 'vitest';
import { emptyStudioDraft, isStudioDraftEmpty, parseStudioDraft } from './store.ts';

describe('the studio draft', () => {
  it('restores the studio prompt and settings, and treats the untouched form as empty', () => {
    const empty = emptyStudioDraft();
    expect(isStudioDraftEmpty(empty)).toBe(true);
    expect(isStudioDraftEmpty({ ...empty, prompt: '   ' })).toBe(true);
    expect(isStudioDraftEmpty({ ...empty, image: { ...empty.image, autoUpscale: true } })).toBe(false);
    const typed = { ...empty, prompt: 'a fox', audio: { ...empty.audio, type: 'voice' as const } };
    expect(parseStudioDraft(JSON.parse(JSON.stringify(typed)))).toEqual(typed);
    expect(parseStudioDraft({ prompt: 5, audio: { type: 'opera' } })).toEqual(empty);
    expect(parseStudioDraft('x')).toBeNull();
  });
});
