// The Magic Selector's mask and its session: the painter on the mask canvas, a canvas image handed over as the base,
// the mask sized to each new base, and the saved session (with a restored mask waiting for its base's canvas).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { imageThumbnail, loadImage, shrinkDataUrl } from '../multi-composition/images.ts';
import { MaskPainter } from './MaskPainter.ts';
import { captureMagicSelectorSession, parseMagicSelectorSession } from './session.ts';
import { type createMagicStore, useMagicHandoff } from './store.ts';

export type MagicStore = ReturnType<typeof createMagicStore>;

/** Embedded images kept in a saved session are shrunk to these sizes (characters of data URL). */
const SESSION_BASE_CHARS = 3_000_000;
const SESSION_REFERENCE_CHARS = 1_000_000;

/** A data URL small enough for a saved session (server URLs pass as they are); null until ready. */
function useSessionCopy(src: string | null, maxChars: number): string | null {
  const [copy, setCopy] = useState<{ src: string; out: string } | null>(null);
  useEffect(() => {
    if (!src) return;
    let live = true;
    shrinkDataUrl(src, maxChars)
      .then((out) => live && setCopy({ src, out }))
      .catch(() => live && setCopy({ src, out: src }));
    return () => {
      live = false;
    };
  }, [src, maxChars]);
  if (!src) return null;
  return copy?.src === src ? copy.out : src.startsWith('data:') && src.length > maxChars ? null : src;
}

export function useMagicMask(store: MagicStore, tab: boolean) {
  const base = useStore(store, (s) => s.base);
  const size = useStore(store, (s) => s.size);
  const reference = useStore(store, (s) => s.reference);
  const mode = useStore(store, (s) => s.mode);
  const quality = useStore(store, (s) => s.quality);
  const styleStrength = useStore(store, (s) => s.styleStrength);
  const prompt = useStore(store, (s) => s.prompt);
  const result = useStore(store, (s) => s.result);
  const { setBase, setSize, setResult } = store.getState();
  const painter = useRef<MaskPainter | null>(null);
  const maskCanvas = useCallback((canvas: HTMLCanvasElement | null) => {
    painter.current = canvas ? new MaskPainter(canvas, MAGIC_SELECTOR.brushWidth) : null;
  }, []);

  const clearMask = useCallback(() => painter.current?.clear(), []);

  // A canvas image handed over by the selection toolbar becomes the base (the editor tab only).
  const handed = useMagicHandoff((s) => s.source);
  useEffect(() => {
    if (!tab || !handed) return;
    useMagicHandoff.setState({ source: null });
    setResult(null);
    setBase(handed.url, handed.imageId);
  }, [tab, handed, setBase, setResult]);

  // A new base image: the mask takes its natural size and starts all black.
  useEffect(() => {
    if (!base) return setSize(null);
    const img = new Image();
    img.onload = () => setSize({ width: img.naturalWidth, height: img.naturalHeight });
    img.src = base;
  }, [base, setSize]);
  // A restored mask waits here until the base image it belongs to has its canvas.
  const pendingMask = useRef<string | null>(null);
  const paintMask = useCallback(async (mask: string) => {
    const img = await loadImage(mask);
    painter.current?.paint(img);
  }, []);
  useEffect(() => {
    if (!size) return;
    clearMask();
    const mask = pendingMask.current;
    pendingMask.current = null;
    if (mask) paintMask(mask).catch((err: unknown) => console.error('Mask restore failed', err));
  }, [size, clearMask, paintMask]);

  const sessionBase = useSessionCopy(base, SESSION_BASE_CHARS);
  const sessionReference = useSessionCopy(reference, SESSION_REFERENCE_CHARS);
  useSessionParticipant('magic-selector', {
    capture: () =>
      captureMagicSelectorSession({
        baseImage: sessionBase ?? base,
        prompt,
        mode,
        result,
        quality,
        styleStrength,
        referenceImage: sessionReference ?? reference,
        maskImage: base && size ? (painter.current?.toDataUrl() ?? null) : null,
      }) as Record<string, unknown> | null,
    restore: (data) => {
      const state = parseMagicSelectorSession(data);
      store.getState().restore(state);
      if (state.baseImage === base && size) {
        if (state.maskImage) void paintMask(state.maskImage);
        else clearMask();
      } else {
        pendingMask.current = state.maskImage;
        setBase(state.baseImage);
      }
    },
    thumbnail: () => imageThumbnail(base ?? result?.url),
  });

  return { painter, maskCanvas, clearMask };
}
