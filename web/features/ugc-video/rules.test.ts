import { describe, expect, it } from 'vitest';
import { checkUgc } from './rules.ts';

describe('UGC video checks', () => {
  const ok = { personaId: 'p1', productImages: 1, script: 'Try this!' };
  it('needs a persona, 1–2 product images and a spoken line of at most 300 characters', () => {
    expect(checkUgc(ok)).toBeNull();
    expect(checkUgc({ ...ok, productImages: 2 })).toBeNull();
    expect(checkUgc({ ...ok, personaId: '' })).toBe('Please select a persona and enter a video prompt');
    expect(checkUgc({ ...ok, productImages: 0 })).toBe('Please add at least one product image');
    expect(checkUgc({ ...ok, productImages: 3 })).toBe('At most 2 product images can be used');
    expect(checkUgc({ ...ok, script: '  ' })).toBe('Please enter the line the persona should say');
    expect(checkUgc({ ...ok, script: 'x'.repeat(301) })).toBe('The spoken line can be at most 300 characters');
  });
});
