import { describe, expect, it } from 'vitest';
import {
  acceptFor,
  limitUploadBatch,
  mapWithConcurrency,
  uploadFailureMessage,
  uploadKindOf,
  uploadSizeError,
} from './upload-rules.ts';

describe('upload rules', () => {
  it('derives the kind from the MIME type, else the extension', () => {
    expect(uploadKindOf({ type: 'image/png', name: 'x.mp4' })).toBe('image');
    expect(uploadKindOf({ type: 'video/mp4' })).toBe('video');
    expect(uploadKindOf({ type: 'audio/mpeg' })).toBe('audio');
    expect(uploadKindOf({ type: '', name: 'clip.MOV' })).toBe('video');
    expect(uploadKindOf({ type: '', name: 'notes.txt' })).toBeNull();
    expect(uploadKindOf({ type: 'application/pdf', name: 'a.pdf' })).toBeNull();
  });

  it('builds accept lists', () => {
    expect(acceptFor(['image'])).toBe('image/*,.jpeg,.jpg,.png,.gif,.webp');
    expect(acceptFor(['video'])).toContain('.webm');
  });

  it('checks the size limit with the spec message', () => {
    expect(uploadSizeError(50 * 1024 * 1024)).toBeNull();
    expect(uploadSizeError(50 * 1024 * 1024 + 1)).toBe('File size exceeds 50MB limit');
    expect(uploadSizeError(6 * 1024 * 1024, 5)).toBe('File size exceeds 5MB limit');
  });

  it('names failures', () => {
    expect(uploadFailureMessage(0)).toBe('Upload failed');
    expect(uploadFailureMessage(413)).toBe('Upload failed (413)');
  });

  it('keeps at most 10 files from one pick', () => {
    const files = Array.from({ length: 13 }, (_, i) => i);
    expect(limitUploadBatch(files)).toEqual({ kept: files.slice(0, 10), dropped: 3 });
    expect(limitUploadBatch([1, 2])).toEqual({ kept: [1, 2], dropped: 0 });
  });

  it('runs at most three at once and keeps the order; failures stay in their slot', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency(
      Array.from({ length: 8 }, (_, i) => i),
      async (n) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5 + ((n * 7) % 11)));
        running -= 1;
        if (n === 5) throw new Error('boom');
        return n * 2;
      },
    );
    expect(peak).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'x'))).toEqual([0, 2, 4, 6, 8, 'x', 12, 14]);
    expect(await mapWithConcurrency([], async () => 1)).toEqual([]);
  });
});
