// The Magic Selector's state and actions, apart from its rendering. One store per open tool (createMagicStore),
// so closing the tool forgets it as before; the mask itself is painted by MaskPainter.
import { create } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import { type MagicMode, type MagicQuality, magicSelectorPrompt } from '../../../common/api/inpaint.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import { previewOf } from '../../ui/PreviewNote.tsx';
import { inpaint } from './api.ts';
import type { MagicResult, MagicSelectorSession } from './session.ts';

export const needsReference = (mode: MagicMode) => (MAGIC_SELECTOR.referenceModes as readonly string[]).includes(mode);

/** The i18n key (and values) of the spec's validation message, or null when the inputs are complete. */
function problemOf(mode: MagicMode, prompt: string, hasReference: boolean): [string, Record<string, string>?] | null {
  const hasPrompt = prompt.trim().length > 0;
  if (mode === 'inpaint') return hasPrompt ? null : ['magicSelector.errors.inpaintPrompt'];
  if (mode === 'replace') return hasReference ? null : ['magicSelector.errors.replaceReference'];
  if (mode === 'style-transfer') return hasReference ? null : ['magicSelector.errors.styleReference'];
  return hasPrompt ? null : ['magicSelector.errors.modePrompt', { mode }];
}

type Translate = (key: string, values?: Record<string, string>) => string;

/** A canvas image handed to the Magic Selector (from the selection toolbar) to be its base. */
export interface MagicSource {
  imageId: string;
  url: string;
}

/**
 * The hand-over from the canvas to the editor's Magic Selector tab: the toolbar puts the selected image here and
 * switches tabs; the tab's panel takes it as its base (and empties this), so no file is picked again.
 */
export const useMagicHandoff = create<{ source: MagicSource | null }>(() => ({ source: null }));

export interface MagicState {
  base: string | null;
  /** The canvas image the base came from (its result is placed beside it), or null for a picked file. */
  sourceId: string | null;
  /** The base the current result was made from: the "before" of the comparison. */
  before: string | null;
  /** The base image's natural size, once it has loaded: the mask's size. */
  size: { width: number; height: number } | null;
  reference: string | null;
  mode: MagicMode;
  quality: MagicQuality;
  styleStrength: number;
  prompt: string;
  error: string | null;
  busy: boolean;
  result: MagicResult | null;
  /** A new base image (from the canvas image `sourceId`, or a file): the error goes. */
  setBase: (base: string | null, sourceId?: string | null) => void;
  setSize: (size: { width: number; height: number } | null) => void;
  setReference: (reference: string) => void;
  setMode: (mode: MagicMode) => void;
  setQuality: (quality: MagicQuality) => void;
  setStyleStrength: (value: number) => void;
  setPrompt: (prompt: string) => void;
  setError: (error: string | null) => void;
  setResult: (result: MagicResult | null) => void;
  /** The settings and result of a saved session (the base image and mask are the caller's). */
  restore: (session: MagicSelectorSession) => void;
  /** Apply Magic: checks the inputs, calls the inpaint route with the mask, keeps the result or the error. */
  apply: (maskImage: () => string | null, t: Translate) => Promise<void>;
}

export function createMagicStore() {
  return createStore<MagicState>()((set, get) => ({
    base: null,
    sourceId: null,
    before: null,
    size: null,
    reference: null,
    mode: 'inpaint',
    quality: MAGIC_SELECTOR.quality,
    styleStrength: MAGIC_SELECTOR.styleStrength,
    prompt: '',
    error: null,
    busy: false,
    result: null,
    setBase: (base, sourceId = null) => set({ base, sourceId, error: null }),
    setSize: (size) => set({ size }),
    setReference: (reference) => set({ reference, error: null }),
    setMode: (mode) => set({ mode, error: null }),
    setQuality: (quality) => set({ quality }),
    setStyleStrength: (styleStrength) => set({ styleStrength }),
    setPrompt: (prompt) => set({ prompt }),
    setError: (error) => set({ error }),
    setResult: (result) => set({ result }),
    restore: (session) =>
      set({
        mode: session.mode,
        prompt: session.prompt,
        quality: session.quality,
        styleStrength: session.styleStrength,
        reference: session.referenceImage,
        result: session.result,
        before: session.result ? session.baseImage : null,
        sourceId: null,
        error: null,
      }),
    apply: async (maskImage, t) => {
      const { base, busy, mode, prompt, reference, quality, styleStrength } = get();
      if (!base || busy) return;
      const problem = problemOf(mode, prompt, Boolean(reference));
      if (problem) return set({ error: t(problem[0], problem[1]) });
      const mask = maskImage();
      if (!mask) return;
      set({ error: null, busy: true });
      try {
        const reply = await inpaint({
          baseImage: base,
          maskImage: mask,
          mode,
          quality,
          prompt: magicSelectorPrompt(mode, prompt),
          ...(needsReference(mode) && reference ? { referenceImage: reference } : {}),
          styleStrength,
        });
        if (!reply.success || !reply.data.url) throw new Error(t('magicSelector.errors.failed'));
        set({
          before: base,
          result: {
            url: reply.data.url,
            id: reply.data.id,
            width: reply.data.width,
            height: reply.data.height,
            engine: engineOf(reply.data.metadata),
            preview: previewOf(reply.data.metadata),
          },
        });
      } catch (err) {
        set({
          error:
            err instanceof ApiError || err instanceof Error
              ? translateMessage(err.message)
              : t('magicSelector.errors.failed'),
        });
      } finally {
        set({ busy: false });
      }
    },
  }));
}
