import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberMessageKey } from '../../../common/message-keys.ts';
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';
import { loadLanguage } from '../../i18n/index.ts';
import { sequenceError } from './text.ts';

describe('sequence errors in Arabic', () => {
  beforeAll(async () => {
    await loadLanguage('ar');
    await i18next.changeLanguage('ar');
  });
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('the server’s “starts beyond its clip” refusal is translated with its values, by its key', () => {
    const english = 'Sequence item "shot-2" starts at 9 s, but its video is only 5 s long';
    rememberMessageKey(english, {
      key: 'sequences.startBeyondClip',
      params: { itemId: 'shot-2', startTime: 9, clipSeconds: 5 },
    });
    const arabic = sequenceError(english);
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
    expect(arabic).toContain('shot-2');
    expect(arabic).toContain('9');
    expect(arabic).toContain('5');
  });

  it('a sequence message built on the page is translated with its value', () => {
    const arabic = sequenceError(SEQUENCE_MESSAGES.unexpectedStatus('STALLED'));
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
    expect(arabic).toContain('STALLED');
  });
});
