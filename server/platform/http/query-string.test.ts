import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.ts';

describe('parseQueryString', () => {
  it('decodes values and keys, plus as space, repeated keys as arrays', () => {
    expect({ ...parseQueryString('a=1&b=x+y&c=%C3%A9&a=2&a=3&empty=&flag') }).toEqual({
      a: ['1', '2', '3'],
      b: 'x y',
      c: 'é',
      empty: '',
      flag: '',
    });
  });

  it('turns malformed escapes into U+FFFD and %00 into NUL, never passing raw escapes on', () => {
    expect(parseQueryString('search=x%00%ED%A0%80').search).toBe('x\u0000\uFFFD\uFFFD\uFFFD');
    expect(parseQueryString('q=%E0%A4%A').q).toBe('\uFFFD%A');
  });

  it('keeps __proto__ an ordinary key', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.entries(parsed)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
