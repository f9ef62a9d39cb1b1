import { describe, expect, it } from 'vitest';
import { fitPostText, POST_TEXT_LIMITS, postTextLength } from './post-text.ts';

const LONG_URL = `https://studio.example.com/api/images/u/${'a'.repeat(120)}.png?sig=${'b'.repeat(60)}`;
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('post text on each network', () => {
  it('counts X links as 23 characters and CJK or emoji as 2, LinkedIn links at their length, other captions without links', () => {
    expect(postTextLength('twitter', 'hello', [LONG_URL])).toBe(5 + 1 + 23);
    expect(postTextLength('twitter', '日本語', [])).toBe(6);
    expect(postTextLength('twitter', '🎉', [])).toBe(2);
    expect(postTextLength('linkedin', 'hello', [LONG_URL])).toBe(5 + 1 + LONG_URL.length);
    expect(postTextLength('instagram', 'hello', [LONG_URL])).toBe(5);
  });

  it('keeps a message that fits as written', () => {
    const message = 'x'.repeat(280 - 24);
    expect(fitPostText('twitter', message, [LONG_URL])).toEqual({
      message,
      shortened: false,
      length: 280,
      limit: 280,
    });
  });

  it('shortens a long message at a word, with an ellipsis, leaving room for the links', () => {
    const message = words(80);
    const fitted = fitPostText('twitter', message, [LONG_URL, LONG_URL]);
    expect(fitted.shortened).toBe(true);
    expect(fitted.length).toBeGreaterThan(280);
    expect(fitted.message.endsWith('…')).toBe(true);
    expect(message.startsWith(fitted.message.slice(0, -1))).toBe(true);
    // Ends on a whole word, and the post with its links is within the limit.
    expect(message.charAt(fitted.message.length - 1)).toBe(' ');
    expect(postTextLength('twitter', fitted.message, [LONG_URL, LONG_URL])).toBeLessThanOrEqual(280);
    expect(postTextLength('twitter', fitted.message, [LONG_URL, LONG_URL])).toBeGreaterThan(280 - 30);
  });

  it('cuts inside a single word longer than the limit, and counts wide characters', () => {
    const fitted = fitPostText('twitter', 'a'.repeat(400), []);
    // X weighs the ellipsis (U+2026) 2.
    expect(fitted.message).toBe(`${'a'.repeat(278)}…`);
    expect(postTextLength('twitter', fitted.message, [])).toBe(280);
    const cjk = fitPostText('twitter', '語'.repeat(200), []);
    expect(postTextLength('twitter', cjk.message, [])).toBeLessThanOrEqual(280);
    expect(fitPostText('instagram', words(500), []).message.length).toBeLessThanOrEqual(POST_TEXT_LIMITS.instagram);
  });
});
