// The multi-composition workspace's state and actions, apart from its rendering: the layers on the artboard,
// the artboard's size, the prompt, adding layers (uploads, canvas images, assets) and Compose. One store per open
// tool (createCompositionStore), so closing the tool forgets it as before.
import i18next from 'i18next';
import { createStore } from 'zustand/vanilla';
import type { Asset } from '../../../common/api/assets.ts';
import { errorMessage } from '../../api/client.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { translateMessage } from '../../i18n/index.ts';
import { composeImages, imageAsDataUri } from '../canvas/dialogs/api.ts';
import { finishedUrl } from '../canvas/dialogs/enhance.ts';
import { CANVAS_DIALOG_MESSAGES, canCompose } from '../canvas/dialogs/rules.ts';
import type { CanvasImage } from '../canvas/store.ts';
import { fileHead, loadImage } from './images.ts';
import {
  ARTBOARD_PRESETS,
  type ArtboardSize,
  addLayers,
  aspectRatioOf,
  byZ,
  type CompositionResult,
  type CompositionSession,
  compositionPrompt,
  DEFAULT_ARTBOARD,
  type Layer,
  MULTI_COMPOSITION_MAX,
  moveLayer,
  type NewLayer,
  removeLayer,
  resizeArtboard,
  resizeLayer,
  roomLeft,
  setOpacity,
  shiftLayer,
  sniffImageType,
} from './layers.ts';

export type PresetId = (typeof ARTBOARD_PRESETS)[number]['id'] | 'custom';
const UPLOAD_MAX_MB = 10;
const MB = 1024 * 1024;

const newId = () => `layer-${globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`}`;

export function presetOf(board: ArtboardSize): PresetId {
  return ARTBOARD_PRESETS.find((p) => p.width === board.width && p.height === board.height)?.id ?? 'custom';
}

async function naturalSize(url: string): Promise<{ width: number; height: number }> {
  try {
    const img = await loadImage(url);
    return { width: img.naturalWidth, height: img.naturalHeight };
  } catch {
    return { width: 0, height: 0 };
  }
}

/** Same-origin media URLs and data URIs go to the server as they are; anything else is fetched here first. */
async function composable(url: string): Promise<string> {
  if (url.startsWith('data:') || url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.origin === window.location.origin) return `${parsed.pathname}${parsed.search}`;
  } catch {
    // not a URL: let the server judge it
  }
  return imageAsDataUri(url);
}

function errorText(error: unknown): string {
  const message = errorMessage(error, CANVAS_DIALOG_MESSAGES.compositionFailed);
  return message === CANVAS_DIALOG_MESSAGES.compositionFailed
    ? i18next.t('multiComposition.failed')
    : translateMessage(message);
}

type Incoming = Omit<NewLayer, 'naturalWidth' | 'naturalHeight'>;

export interface CompositionState {
  layers: Layer[];
  board: ArtboardSize;
  /** Custom size chosen (its fields show even while the size matches a preset). */
  custom: boolean;
  selectedId: string | null;
  prompt: string;
  /** Why some picked files or images were not added. */
  notices: string[];
  adding: boolean;
  busy: boolean;
  error: string | null;
  result: CompositionResult | null;
  restore: (session: CompositionSession) => void;
  setPrompt: (prompt: string) => void;
  /** A size preset, or 'custom' (which keeps the size and shows its fields). */
  choosePreset: (id: PresetId) => void;
  /** A new artboard size: the layers keep their place relative to it. */
  changeBoard: (next: ArtboardSize) => void;
  layerActions: {
    select: (id: string | null) => void;
    move: (id: string, x: number, y: number) => void;
    resize: (id: string, size: { width: number; height: number }) => void;
    shift: (id: string, direction: 'up' | 'down') => void;
    remove: (id: string) => void;
    opacity: (id: string, value: number) => void;
  };
  /** Uploads picked or dropped files (images under 10 MB, as many as there is room for) and adds them. */
  addFiles: (list: FileList | null) => Promise<void>;
  addFromCanvas: (images: CanvasImage[]) => Promise<void>;
  addFromAssets: (assets: Asset[]) => Promise<void>;
  /** Compose: the layers' images bottom first, the layout in the prompt; true when a result came. */
  compose: () => Promise<boolean>;
}

export function createCompositionStore() {
  return createStore<CompositionState>()((set, get) => {
    const t = i18next.t.bind(i18next);

    /** Layers added after an await land on the newest state, not the one the adding began with. */
    const append = async (items: Incoming[], problems: string[]) => {
      const sized = await Promise.all(
        items.map(async (item) => {
          const size = await naturalSize(item.url);
          return { ...item, naturalWidth: size.width, naturalHeight: size.height };
        }),
      );
      const { layers, board } = get();
      const out = addLayers(layers, sized, board);
      if (out.dropped > 0) problems.push(t('multiComposition.limitReached', { max: MULTI_COMPOSITION_MAX }));
      const last = out.layers.at(-1);
      set({
        layers: out.layers,
        notices: problems,
        ...(sized.length > out.dropped && last ? { selectedId: last.id } : {}),
      });
    };

    const adding = async (items: Incoming[]) => {
      set({ adding: true });
      try {
        await append(items, []);
      } finally {
        set({ adding: false });
      }
    };

    const mapLayers = (change: (layers: Layer[], board: ArtboardSize) => Layer[]) =>
      set((s) => ({ layers: change(s.layers, s.board) }));

    return {
      layers: [],
      board: DEFAULT_ARTBOARD,
      custom: false,
      selectedId: null,
      prompt: '',
      notices: [],
      adding: false,
      busy: false,
      error: null,
      result: null,
      restore: (session) => {
        const board = { width: session.canvasWidth, height: session.canvasHeight };
        set({
          board,
          custom: presetOf(board) === 'custom',
          layers: session.layers,
          prompt: session.prompt,
          result: session.result,
          selectedId: null,
          error: null,
          notices: [],
        });
      },
      setPrompt: (prompt) => set({ prompt }),
      choosePreset: (id) => {
        if (id === 'custom') return set({ custom: true });
        set({ custom: false });
        const p = ARTBOARD_PRESETS.find((x) => x.id === id);
        if (p) get().changeBoard({ width: p.width, height: p.height });
      },
      changeBoard: (next) => set((s) => ({ layers: resizeArtboard(s.layers, s.board, next), board: next })),
      layerActions: {
        select: (id) => set({ selectedId: id }),
        move: (id, x, y) => mapLayers((layers, board) => moveLayer(layers, id, x, y, board)),
        resize: (id, size) => mapLayers((layers, board) => resizeLayer(layers, id, size, board)),
        shift: (id, direction) => mapLayers((layers) => shiftLayer(layers, id, direction)),
        remove: (id) =>
          set((s) => ({
            layers: removeLayer(s.layers, id),
            selectedId: s.selectedId === id ? null : s.selectedId,
          })),
        opacity: (id, value) => mapLayers((layers) => setOpacity(layers, id, value)),
      },
      addFiles: async (list) => {
        if (!list || list.length === 0) return;
        const problems: string[] = [];
        const room = roomLeft(get().layers);
        const picked = Array.from(list);
        if (picked.length > room) problems.push(t('multiComposition.limitReached', { max: MULTI_COMPOSITION_MAX }));
        const files: File[] = [];
        for (const file of picked.slice(0, room)) {
          if (!sniffImageType(await fileHead(file))) problems.push(t('multiComposition.notImage', { name: file.name }));
          else if (file.size > UPLOAD_MAX_MB * MB)
            problems.push(t('multiComposition.tooLarge', { name: file.name, max: UPLOAD_MAX_MB }));
          else files.push(file);
        }
        set({ notices: problems });
        if (files.length === 0) return;
        set({ adding: true });
        try {
          const settled = await uploadFiles(files, { purpose: 'multi-composition', maxMb: UPLOAD_MAX_MB });
          const items: Incoming[] = [];
          settled.forEach((outcome, i) => {
            const file = files[i] as File;
            if (outcome.status === 'fulfilled') items.push({ id: newId(), url: outcome.value.url, name: file.name });
            else
              problems.push(
                `${file.name}: ${translateMessage(String((outcome.reason as Error)?.message ?? outcome.reason))}`,
              );
          });
          await append(items, problems);
        } finally {
          set({ adding: false });
        }
      },
      addFromCanvas: (images) => adding(images.map((image) => ({ id: newId(), url: image.url, name: image.name }))),
      addFromAssets: (assets) =>
        adding(
          assets.map((asset) => ({
            id: newId(),
            url: asset.url,
            name: asset.prompt?.trim().slice(0, 40) || t('multiComposition.assetName'),
          })),
        ),
      compose: async () => {
        const { busy, prompt, layers, board } = get();
        if (busy || !canCompose(prompt, layers.length)) return false;
        set({ busy: true, error: null, result: null });
        try {
          const images = await Promise.all(byZ(layers).map((layer) => composable(layer.url)));
          const reply = await composeImages({
            prompt: compositionPrompt(prompt, layers, board),
            imageBuffers: images,
            imageMimeType: 'image/png',
            fileNamePrefix: 'multi-composition',
            aspectRatio: aspectRatioOf(board),
          });
          const url = await finishedUrl(reply.data);
          set({ result: { url, id: reply.data.id, width: reply.data.width, height: reply.data.height } });
          return true;
        } catch (err) {
          console.error('Multi-composition failed', err);
          set({ error: errorText(err) });
          return false;
        } finally {
          set({ busy: false });
        }
      },
    };
  });
}
