// The Multi-Reference tool's state and actions, apart from its rendering: the references and their weights,
// the blend settings and prompts, uploads, and Generate (one call per variation; a video-to-video task is waited
// for). One store per open tool (createMultiReferenceStore), so closing the tool forgets it as before.
import { createStore } from 'zustand/vanilla';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import type { MultiReferenceBody, MultiReferenceReply } from '../../../common/api/multi-reference.ts';
import { taskOutputs } from '../../../common/api/tasks.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError, apiRequest } from '../../api/client.ts';
import { TaskWatchTimeout, watchTask } from '../../api/tasks.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import { previewOf } from '../../ui/PreviewNote.tsx';
import type {
  BlendMode,
  BlendSettings,
  CompositionMode,
  MultiReferenceResult,
  MultiReferenceSession,
  Quality,
  RefType,
} from './session.ts';
import { checkReferenceFile, type MultiReferenceMode } from './upload-rules.ts';

interface Reference {
  id: string;
  name: string;
  url: string;
  weight: number;
  type: RefType;
  description: string;
  mediaType: 'image' | 'video';
}

/** Longest a running video-to-video task is waited for (the server's task expiry). */
const TASK_WAIT_MS = 30 * 60_000;

/** Waits for a task, reporting its progress, and answers its first output (null when it failed). */
async function taskOutput(
  taskId: string,
  onProgress: (percent: number) => void,
): Promise<{ url: string; id: string | null; engine: string | null } | null> {
  const task = await watchTask(taskId, {
    timeoutMs: TASK_WAIT_MS,
    onProgress: (running) => onProgress(running.progress),
  }).catch((error: unknown) => {
    if (error instanceof TaskWatchTimeout) return null;
    throw error;
  });
  if (task?.status !== 'completed') return null;
  const first = taskOutputs(task.result)[0];
  return first ? { url: first.url, id: first.assetId, engine: first.engine } : null;
}

export interface MultiReferenceState extends BlendSettings {
  mode: MultiReferenceMode;
  refs: Reference[];
  prompt: string;
  styleModifier: string;
  negativePrompt: string;
  uploading: boolean;
  busy: boolean;
  /** Progress (percent) of a video-to-video task still running. */
  progress: number | null;
  errors: string[];
  results: MultiReferenceResult[];
  setPrompt: (prompt: string) => void;
  setStyleModifier: (value: string) => void;
  setNegativePrompt: (value: string) => void;
  setBlendMode: (value: BlendMode) => void;
  setStrength: (value: number) => void;
  setVariations: (value: number) => void;
  setAspectRatio: (value: string) => void;
  setQuality: (value: Quality) => void;
  setCompositionMode: (value: CompositionMode) => void;
  setPreserveDetails: (value: boolean) => void;
  patchRef: (id: string, patch: Partial<Reference>) => void;
  removeRef: (id: string) => void;
  restore: (session: MultiReferenceSession) => void;
  /** Checks picked files against the mode's rules, uploads the ones that pass, and adds them as references. */
  onFiles: (list: FileList | null) => Promise<void>;
  generate: () => Promise<void>;
  /** Image or video-to-video: the results go, and videos leave the references in image mode. */
  switchMode: (next: MultiReferenceMode) => void;
  clearAll: () => void;
}

export function createMultiReferenceStore() {
  return createStore<MultiReferenceState>()((set, get) => ({
    mode: 'image',
    refs: [],
    prompt: '',
    styleModifier: '',
    negativePrompt: '',
    blendMode: MULTI_REFERENCE.defaults.blendMode,
    strength: MULTI_REFERENCE.strength.default,
    variations: MULTI_REFERENCE.variations.default,
    aspectRatio: MULTI_REFERENCE.defaults.aspectRatio,
    quality: MULTI_REFERENCE.defaults.quality,
    compositionMode: MULTI_REFERENCE.defaults.compositionMode,
    preserveDetails: MULTI_REFERENCE.defaults.preserveDetails,
    uploading: false,
    busy: false,
    progress: null,
    errors: [],
    results: [],
    setPrompt: (prompt) => set({ prompt }),
    setStyleModifier: (styleModifier) => set({ styleModifier }),
    setNegativePrompt: (negativePrompt) => set({ negativePrompt }),
    setBlendMode: (blendMode) => set({ blendMode }),
    setStrength: (strength) => set({ strength }),
    setVariations: (variations) => set({ variations }),
    setAspectRatio: (aspectRatio) => set({ aspectRatio }),
    setQuality: (quality) => set({ quality }),
    setCompositionMode: (compositionMode) => set({ compositionMode }),
    setPreserveDetails: (preserveDetails) => set({ preserveDetails }),
    patchRef: (id, patch) => set((s) => ({ refs: s.refs.map((r) => (r.id === id ? { ...r, ...patch } : r)) })),
    removeRef: (id) => set((s) => ({ refs: s.refs.filter((r) => r.id !== id) })),
    restore: (state) => {
      const b = state.blendSettings;
      set({
        mode: state.mode,
        refs: state.referenceImages.map((r) => ({
          id: r.id,
          name: r.filename,
          url: r.url,
          weight: r.weight,
          type: r.type,
          description: r.description,
          mediaType: r.mediaType,
        })),
        prompt: state.prompt,
        styleModifier: state.styleModifier,
        negativePrompt: state.negativePrompt,
        blendMode: b.blendMode,
        strength: b.strength,
        variations: b.variations,
        aspectRatio: b.aspectRatio,
        quality: b.quality,
        compositionMode: b.compositionMode,
        preserveDetails: b.preserveDetails,
        results: state.results,
        errors: [],
      });
    },
    onFiles: async (list) => {
      if (!list) return;
      const { refs, mode } = get();
      const problems: string[] = [];
      const room = MULTI_REFERENCE.maxFiles - refs.length;
      const picked = Array.from(list);
      if (picked.length > room) problems.push(MESSAGES.multiReference.tooManyFiles(MULTI_REFERENCE.maxFiles));
      const files: File[] = [];
      const kinds: Array<'image' | 'video'> = [];
      let maxMb: number = MULTI_REFERENCE.imageMaxMb;
      for (const file of picked.slice(0, Math.max(0, room))) {
        const verdict = checkReferenceFile(file, mode);
        if ('error' in verdict) {
          problems.push(`${file.name}: ${verdict.error}`);
          continue;
        }
        files.push(file);
        kinds.push(verdict.mediaType);
        maxMb = Math.max(maxMb, verdict.maxMb);
      }
      set({ errors: problems });
      if (files.length === 0) return;
      set({ uploading: true });
      try {
        const settled = await uploadFiles(files, { purpose: 'multi-reference', maxMb });
        const added: Reference[] = [];
        settled.forEach((outcome, i) => {
          const file = files[i];
          if (outcome.status === 'fulfilled' && file) {
            added.push({
              id: `${Date.now()}-${i}-${file.name}`,
              name: file.name,
              url: outcome.value.url,
              weight: MULTI_REFERENCE.weight.default,
              type: 'style',
              description: '',
              mediaType: kinds[i] ?? 'image',
            });
          } else if (outcome.status === 'rejected') {
            problems.push(`${file?.name ?? ''}: ${String((outcome.reason as Error)?.message ?? outcome.reason)}`);
          }
        });
        set((s) => ({ refs: [...s.refs, ...added].slice(0, MULTI_REFERENCE.maxFiles), errors: [...problems] }));
      } finally {
        set({ uploading: false });
      }
    },
    generate: async () => {
      const { prompt, refs, mode, styleModifier, negativePrompt, variations } = get();
      const { blendMode, strength, aspectRatio, quality, compositionMode, preserveDetails } = get();
      if (!prompt.trim() || refs.length === 0) {
        set({ errors: [MESSAGES.multiReference.promptAndReference] });
        return;
      }
      const video = mode === 'video-to-video';
      if (video && !refs.some((r) => r.mediaType === 'video')) {
        set({ errors: [MESSAGES.multiReference.videoRequired] });
        return;
      }
      set({ busy: true, errors: [], results: [] });
      const fullPrompt = styleModifier.trim() ? `${prompt.trim()}, ${styleModifier.trim()}` : prompt.trim();
      const failures: string[] = [];
      for (let n = 1; n <= variations; n++) {
        const body: MultiReferenceBody = {
          service: video ? 'runway' : 'nanobana',
          type: video ? MULTI_REFERENCE.videoToVideo.type : 'image-to-image',
          prompt: fullPrompt,
          negativePrompt: negativePrompt.trim() || undefined,
          referenceImages: refs.map((r) => ({
            url: r.url,
            weight: r.weight / 100,
            type: r.type,
            description: r.description.trim() || undefined,
            mediaType: r.mediaType,
          })),
          blendMode,
          strength: strength / 100,
          numImages: 1,
          aspectRatio,
          quality,
          compositionMode,
          preserveDetails,
          multiReference: true,
          seed: Math.floor(Math.random() * 1_000_000),
        };
        try {
          const reply = await apiRequest<MultiReferenceReply>('/api/ai/generate/multi-reference', {
            method: 'POST',
            body,
          });
          const output =
            reply.data.url !== null
              ? {
                  url: reply.data.url,
                  id: reply.data.id,
                  engine: engineOf(reply.data.images[0]?.metadata),
                  preview: previewOf(reply.data.metadata),
                }
              : reply.data.status === 'processing'
                ? await taskOutput(reply.data.taskId, (progress) => set({ progress }))
                : null;
          if (output) {
            const mediaType = video ? ('video' as const) : ('image' as const);
            set((s) => ({ results: [...s.results, { ...output, variation: n, mediaType }] }));
          } else failures.push(MESSAGES.multiReference.variationFailed(n));
        } catch (error) {
          const detail = error instanceof ApiError ? `: ${error.message}` : '';
          failures.push(`${MESSAGES.multiReference.variationFailed(n)}${detail}`);
        }
      }
      set({ errors: failures, progress: null, busy: false });
    },
    switchMode: (next) => {
      const { mode, refs } = get();
      if (next === mode) return;
      set({ mode: next, results: [] });
      if (next === 'image' && refs.some((r) => r.mediaType === 'video')) {
        // Videos are only references in video-to-video mode.
        set((s) => ({
          refs: s.refs.filter((r) => r.mediaType === 'image'),
          errors: [MESSAGES.multiReference.unsupportedType],
        }));
      } else set({ errors: [] });
    },
    clearAll: () => set({ refs: [], prompt: '', styleModifier: '', negativePrompt: '', results: [], errors: [] }),
  }));
}
