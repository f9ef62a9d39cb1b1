import { describe, expect, it } from 'vitest';
import { draftKey, pickTyped } from './drafts.tsx';

describe('kept drafts', () => {
  it('keys a draft by screen and user, so one user never reads another one', () => {
    expect(draftKey('draft.studio', 'u1')).toBe('genpro.draft.studio.u1');
    expect(draftKey('draft.studio', 'u1')).not.toBe(draftKey('draft.studio', 'u2'));
    // The film wizard's key from before the shared helper is unchanged.
    expect(draftKey('film', 'u1')).toBe('genpro.film.u1');
  });

  it('reads a stored object back over the defaults, keeping only fields of the right type', () => {
    const defaults = { name: '', count: 2, on: false, tags: [] as string[] };
    expect(pickTyped(defaults, { name: 'Ava', count: '7', on: true, tags: ['a', 3], extra: 'x' })).toEqual({
      name: 'Ava',
      count: 2,
      on: true,
      tags: [],
    });
    expect(pickTyped(defaults, { count: Number.NaN, tags: ['a', 'b'] })).toEqual({ ...defaults, tags: ['a', 'b'] });
    expect(pickTyped(defaults, 'not an object')).toEqual(defaults);
    expect(pickTyped(defaults, null)).toEqual(defaults);
  });
});
