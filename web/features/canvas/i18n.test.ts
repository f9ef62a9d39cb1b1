import { describe, expect, it } from 'vitest';
import { CANVAS_DIALOG_MESSAGES } from './dialogs/rules.ts';
import en from './i18n/en.json';

describe('canvas strings', () => {
  it('say the spec’s words in English', () => {
    expect(en.canvasOverlay.quickEditDone).toBe(CANVAS_DIALOG_MESSAGES.quickEditDone);
  });
});
