import { describe, expect, it } from 'vitest';
import { isToolUpload, largestUploadLimitMb, uploadLimitMb } from './upload-limits.ts';

describe('upload limits by purpose', () => {
  it("gives the canvas and its tools the canvas spec's limits whatever UPLOAD_MAX_MB says", () => {
    expect(uploadLimitMb('canvas', 'image', 50)).toBe(75);
    expect(uploadLimitMb('multi-reference', 'video', 50)).toBe(750);
    expect(uploadLimitMb('characters', 'audio', 50)).toBe(100);
    expect(uploadLimitMb('canvas', null, 50)).toBe(100);
    expect(largestUploadLimitMb('canvas', 50)).toBe(750);
  });

  it('keeps every other upload to UPLOAD_MAX_MB, under the same ceilings', () => {
    expect(uploadLimitMb('ai-asset', 'video', 50)).toBe(50);
    expect(largestUploadLimitMb('ai-asset', 50)).toBe(50);
    expect(uploadLimitMb('avatar', 'image', 500)).toBe(75);
    expect(uploadLimitMb('', 'video', 500)).toBe(500);
    expect(isToolUpload('ai-asset')).toBe(false);
    expect(isToolUpload('magic-selector')).toBe(true);
  });
});
