import { describe, expect, it } from 'vitest';
import { CANVAS_DIALOG_MESSAGES } from '../../../common/rules/canvas-dialogs.ts';
import en from './i18n/en.json';

describe('canvas strings', () => {
  it('say the spec’s words in English', () => {
    expect(en.canvasOverlay.quickEditDone).toBe(CANVAS_DIALOG_MESSAGES.quickEditDone);
  });
});
