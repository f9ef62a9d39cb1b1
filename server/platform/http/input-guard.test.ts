import { describe, expect, it } from 'vitest';
import { findBadInput, MAX_INPUT_DEPTH } from './input-guard.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('findBadInput', () => {
  it('passes ordinary input, emoji pairs and nesting up to the limit', () => {
    expect(findBadInput({ prompt: 'a 👩‍👩‍👧 family', tags: ['x', { y: [1, null, true] }] })).toBeNull();
    expect(findBadInput(nested(MAX_INPUT_DEPTH))).toBeNull();
    expect(findBadInput('plain')).toBeNull();
    expect(findBadInput(42)).toBeNull();
  });

  it('finds a NUL in a value or key, with its path', () => {
    expect(findBadInput({ a: { b: ['ok', 'x\u0000y'] } })).toEqual({ problem: 'nul', path: ['a', 'b', '1'] });
    expect(findBadInput({ a: { 'k\u0000': 1 } })).toEqual({ problem: 'nul', path: ['a', 'k'] });
  });

  it('finds lone surrogates, high or low, in values and keys', () => {
    expect(findBadInput({ name: 'x\uD800' })).toEqual({ problem: 'surrogate', path: ['name'] });
    expect(findBadInput({ list: ['\uDC00y'] })).toEqual({ problem: 'surrogate', path: ['list', '0'] });
    expect(findBadInput({ '\uDBFF': 'v' })).toEqual({ problem: 'surrogate', path: ['\uDBFF'] });
  });

  it('refuses nesting past the limit without recursing, even 100,000 deep', () => {
    expect(findBadInput(nested(MAX_INPUT_DEPTH + 1))?.problem).toBe('depth');
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(findBadInput(deep)?.problem).toBe('depth');
  });
});
