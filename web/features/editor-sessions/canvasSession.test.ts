import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { snapshotCanvas, useCanvas } from '../canvas/store.ts';
import { snapshotSequences, useSequences } from '../sequences/store.ts';
import { sessionErrorText } from './api.ts';
import { canvasSessionData, readCanvasSession } from './canvasSession.ts';
import { prepareSessionData } from './save.ts';

function resetStores() {
  useCanvas.getState().clearAll();
  useCanvas.getState().resetView();
  useSequences.getState().clear();
  useSequences.setState({ items: [], movieScript: '', videoMode: 'dream' });
}

function buildCanvas() {
  const canvas = useCanvas.getState();
  const a = canvas.addImage({
    url: '/api/images/a.png',
    thumbnailUrl: '/api/images/a.webp',
    name: 'a.png',
    assetId: 'as-1',
  });
  const b = canvas.addImage({ url: '/api/images/b.png', thumbnailUrl: null, name: 'b.png', prompt: 'a red boat' });
  if (!a || !b) throw new Error('images not added');
  canvas.select([b.id]);
  canvas.setView({ zoom: 1.75, panX: -120, panY: 48 });
  canvas.setTool('pan');
  canvas.setInputMode('upload');
  canvas.setFormat('2K|Mobile');
  const sequences = useSequences.getState();
  sequences.pin(a);
  sequences.pin(b);
  const [first, second] = useSequences.getState().items;
  sequences.patchItem(first.id, { videoStatus: 'completed', videoUrl: '/api/videos/v.mp4', duration: 3 });
  sequences.patchItem(second.id, { videoStatus: 'generating', taskId: 'task-1', progress: 40 });
  sequences.setVideoMode('pro');
  sequences.setMovieScript('INT. HARBOUR - NIGHT');
  sequences.setMaster({ isGenerating: true, masterVideoUrl: '/api/videos/m.mp4', duration: 8, videoCount: 1 });
  return { a, b };
}

describe('canvas session snapshot and restore', () => {
  beforeEach(resetStores);

  it('reports the spec fields of multi-image-canvas data', () => {
    const { a, b } = buildCanvas();
    const data = canvasSessionData(snapshotCanvas(useCanvas.getState()), snapshotSequences(useSequences.getState()));
    expect(data.canvasState).toMatchObject({ zoom: 1.75, panX: -120, panY: 48 });
    expect((data.canvasImages as { name: string }[]).map((img) => img.name)).toEqual(['a.png', 'b.png']);
    expect(data.selectedImageIds).toEqual([b.id]);
    expect(data).toMatchObject({
      activeTool: 'pan',
      inputMode: 'upload',
      videoGenerationMode: 'pro',
      movieScript: 'INT. HARBOUR - NIGHT',
      format: '2K|Mobile',
    });
    expect((data.imageSequence as { originalImageId: string }[]).map((item) => item.originalImageId)).toEqual([
      a.id,
      b.id,
    ]);
    expect(data.masterSequence).toMatchObject({ isGeneratingMaster: true, masterVideoUrl: '/api/videos/m.mp4' });
  });

  it('round-trips through save normalisation and JSON, replacing the current canvas', () => {
    const { a, b } = buildCanvas();
    const before = snapshotCanvas(useCanvas.getState());
    const prepared = prepareSessionData(
      'multi-image-canvas',
      canvasSessionData(before, snapshotSequences(useSequences.getState())),
    );
    if (!prepared.ok) throw new Error(prepared.message);
    const stored = JSON.parse(JSON.stringify(prepared.data)) as Record<string, unknown>;

    // Something else on the canvas now: the load replaces it.
    resetStores();
    useCanvas.getState().addImage({ url: '/api/images/other.png', thumbnailUrl: null, name: 'other.png' });
    useCanvas.getState().setView({ zoom: 0.5, panX: 0, panY: 0 });

    const { canvas, sequences } = readCanvasSession(stored);
    useCanvas.getState().restore(canvas);
    useSequences.getState().restore(sequences);

    const state = useCanvas.getState();
    expect(state.images.map((img) => [img.id, img.name, img.url, img.x, img.y])).toEqual(
      before.images.map((img) => [img.id, img.name, img.url, img.x, img.y]),
    );
    expect(state.images.find((img) => img.id === a.id)?.assetId).toBe('as-1');
    expect(state.images.find((img) => img.id === b.id)?.prompt).toBe('a red boat');
    expect(state.selectedIds).toEqual([b.id]);
    expect(state.images.find((img) => img.id === b.id)?.isSelected).toBe(true);
    expect([state.zoom, state.panX, state.panY]).toEqual([1.75, -120, 48]);
    expect([state.tool, state.inputMode, state.format, state.imageModel]).toEqual([
      'pan',
      'upload',
      '2K|Mobile',
      'nanobana',
    ]);

    const seq = useSequences.getState();
    // Spec 4: completed stays, anything else becomes pending; the master's generating flag is reset.
    expect(seq.items.map((item) => item.videoStatus)).toEqual(['completed', 'pending']);
    expect(seq.items[0]).toMatchObject({ videoUrl: '/api/videos/v.mp4', duration: 3, originalImageId: a.id });
    expect(seq.videoMode).toBe('pro');
    expect(seq.movieScript).toBe('INT. HARBOUR - NIGHT');
    expect(seq.master).toEqual({
      isGenerating: false,
      masterVideoUrl: '/api/videos/m.mp4',
      duration: 8,
      videoCount: 1,
    });
  });

  it('clamps the zoom, drops unusable images and unknown selections', () => {
    const { canvas } = readCanvasSession({
      canvasImages: [{ id: 'x', url: '/api/images/x.png', name: 'x' }, { id: 'broken' }, 'nope'],
      canvasState: { zoom: 40 },
      imageSequence: [],
      selectedImageIds: ['x', 'ghost'],
    });
    useCanvas.getState().restore(canvas);
    const state = useCanvas.getState();
    expect(state.images.map((img) => img.id)).toEqual(['x']);
    expect(state.selectedIds).toEqual(['x']);
    expect(state.zoom).toBe(5);
  });

  it('refuses data of the wrong shape with the spec messages', () => {
    expect(() => readCanvasSession({ canvasImages: {}, canvasState: [], imageSequence: [] })).toThrow(
      'Invalid session data: canvasImages must be an array, canvasState must be an object',
    );
  });
});

describe('prepareSessionData and error text', () => {
  it("says 'No session data to save' for nothing and checks the shape and size", () => {
    expect(prepareSessionData('magic-selector', null)).toEqual({ ok: false, message: 'No session data to save' });
    expect(prepareSessionData('magic-selector', { baseImage: 1, prompt: 'x', mode: 'inpaint' })).toEqual({
      ok: false,
      message: 'Invalid session data: baseImage must be a string or null',
    });
    const big = { baseImage: 'x'.repeat(11 * 1024 * 1024), prompt: '', mode: 'inpaint' };
    const result = prepareSessionData('magic-selector', big);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^Session data too large: 11\.00MB \(max: 10MB\)$/);
    const fine = prepareSessionData('magic-selector', { baseImage: null, prompt: 'fox', mode: 'inpaint' });
    expect(fine).toMatchObject({
      ok: true,
      sizeBytes: JSON.stringify({ baseImage: null, prompt: 'fox', mode: 'inpaint' }).length,
    });
  });

  it('uses details, then error, then HTTP {status}', () => {
    expect(sessionErrorText(new ApiError(400, 'Bad', undefined, 'details text'), 'fallback')).toBe('details text');
    expect(sessionErrorText(new ApiError(413, 'Session data too large: 12.00MB (max: 10MB)'), 'fallback')).toBe(
      'Session data too large: 12.00MB (max: 10MB)',
    );
    expect(sessionErrorText(new ApiError(502, 'Something went wrong. Please try again.'), 'f')).toBe('HTTP 502');
    expect(sessionErrorText(new Error('x'), 'Failed to save session')).toBe('Failed to save session');
  });
});
