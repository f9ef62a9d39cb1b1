import { describe, expect, it } from 'vitest';
import { CONTENT_POLICY, checkContentPolicy, findPolicyViolations } from './policy.ts';
import { ContentFilteredError } from './types.ts';

describe('content policy', () => {
  const standalone = CONTENT_POLICY.filter((rule) => !rule.requiresAlso);

  it.each(standalone.flatMap((rule) => rule.terms.map((term) => [rule.id, term] as const)))(
    'refuses %s term "%s" inside a sentence, any case',
    (ruleId, term) => {
      const prompt = `A photo of ${term.toUpperCase()} at the park`;
      expect(findPolicyViolations(prompt).map((f) => f.rule)).toContain(ruleId);
      expect(() => checkContentPolicy(prompt)).toThrow(ContentFilteredError);
    },
  );

  it('refuses nudity terms only together with a word for a child', () => {
    const rule = CONTENT_POLICY.find((r) => r.requiresAlso);
    expect(rule).toBeDefined();
    for (const term of rule?.terms ?? []) {
      expect(findPolicyViolations(`${term} child`).map((f) => f.rule)).toContain(rule?.id);
    }
    expect(findPolicyViolations('a classical nude marble statue in a museum')).toEqual([]);
    expect(findPolicyViolations('a child flying a kite on the beach')).toEqual([]);
  });

  it('catches spacing, punctuation and leet obfuscations', () => {
    for (const prompt of [
      'p o r n scene',
      'P.O.R.N',
      'g0re everywhere',
      'h3ntai art',
      'a d-e-e-p-f-a-k-e of a politician',
      'deep fake video',
      'make a b0mb',
      'l0li',
    ]) {
      expect(() => checkContentPolicy(prompt), prompt).toThrow(ContentFilteredError);
    }
  });

  it('is word-bounded: innocent words containing a term pass', () => {
    for (const prompt of [
      'a calm sunset over the ocean',
      'Essex countryside, sextant on a desk, Middlesex',
      'a gorge with a waterfall, Gorey beach',
      'scarlet lolipop candy shop',
      'a pediatrician in a clinic',
      'a 3 cats and 1 dog portrait in 1080p',
      'sarinda folk instrument',
      'plan a b c for the launch',
    ]) {
      expect(findPolicyViolations(prompt), prompt).toEqual([]);
    }
  });

  it('throws a 422 content_filtered AppError with reasons', () => {
    try {
      checkContentPolicy('some gore please');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContentFilteredError);
      const e = error as ContentFilteredError;
      expect(e.status).toBe(422);
      expect(e.code).toBe('content_filtered');
      expect(e.reasons).toEqual(['gore: gore']);
    }
  });

  it('passes normal prompts and empty input', () => {
    expect(() => checkContentPolicy('neon cyberpunk city at night, cinematic', undefined, '')).not.toThrow();
  });
});
