// Cinema Sequences state (canvas spec 3 "Sequence item", "Master sequence"; 4; 9): the pinned items in
// timeline order, the video mode, the movie script and the master video. Kept in a store so a running video
// poll keeps reporting while panels open and close, and so the canvas can pin from its image list.
import { toast } from 'sonner';
import { create } from 'zustand';
import {
  DEFAULT_SEQUENCE_VIDEO_MODE,
  pinImage,
  reorderItems,
  type SequenceVideoMode,
  type SequenceItem as SpecSequenceItem,
} from '../../../common/rules/sequences.ts';
import { sequenceText } from './text.ts';

/** A spec sequence item plus what the panel shows while its video is made. */
export interface SequenceItem extends SpecSequenceItem {
  moviePrompt: string;
  /** 0–100 while a video is being generated. */
  progress: number;
  error?: string;
  /** The pinned canvas image's small copy and the finished video's poster frame: the timeline's thumbnails. */
  thumbnailUrl?: string | null;
  posterUrl?: string | null;
}

interface MasterState {
  isGenerating: boolean;
  masterVideoUrl: string | null;
  duration: number | null;
  videoCount: number | null;
}

interface MovieAnalysis {
  contentType: string;
  sequenceCount: number;
  analysis: unknown;
}

/** What the canvas hands over when pinning: its image (canvas store shape) or anything with these fields. */
interface PinnableImage {
  id: string;
  url: string;
  name: string;
  thumbnailUrl?: string | null;
  width?: number;
  height?: number;
  naturalWidth?: number;
  naturalHeight?: number;
}

interface SequencesState {
  items: SequenceItem[];
  videoMode: SequenceVideoMode;
  movieScript: string;
  master: MasterState;
  analysis: MovieAnalysis | null;
  analyzing: boolean;
  /** Adds the image; false when it is already pinned. */
  pin: (image: PinnableImage) => boolean;
  remove: (id: string) => void;
  /** Moves an item; false when the position does not change. */
  reorder: (from: number, to: number) => boolean;
  setTiming: (id: string, timing: { startTime: number; duration: number }) => void;
  patchItem: (id: string, patch: Partial<SequenceItem>) => void;
  setVideoMode: (mode: SequenceVideoMode) => void;
  setMovieScript: (script: string) => void;
  setMaster: (patch: Partial<MasterState>) => void;
  setAnalysis: (analysis: MovieAnalysis | null) => void;
  setAnalyzing: (analyzing: boolean) => void;
  clear: () => void;
  /** Replaces the sequence with a saved one (editor sessions); the movie agent analysis is dropped. */
  restore: (snapshot: SequencesSnapshot) => void;
}

/** What a saved session keeps of the Cinema Sequences panel. */
export interface SequencesSnapshot {
  items: SequenceItem[];
  videoMode: SequenceVideoMode;
  movieScript: string;
  master: MasterState;
}

const emptyMaster: MasterState = { isGenerating: false, masterVideoUrl: null, duration: null, videoCount: null };

/** The aspect ratio a video of this image should have. */
function aspectOf(width?: number, height?: number): string {
  if (!width || !height) return '16:9';
  const ratio = width / height;
  if (ratio > 1.1) return '16:9';
  if (ratio < 0.9) return '9:16';
  return '1:1';
}

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? `seq-${crypto.randomUUID()}`
    : `seq-${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const useSequences = create<SequencesState>()((set, get) => ({
  items: [],
  videoMode: DEFAULT_SEQUENCE_VIDEO_MODE,
  movieScript: '',
  master: emptyMaster,
  analysis: null,
  analyzing: false,
  pin: (image) => {
    const result = pinImage(get().items, image, {
      id: newId(),
      timestamp: Date.now(),
      // The picture's own size when known (its box has the same aspect once drawn; issue 29).
      sourceAspectRatio: aspectOf(image.naturalWidth ?? image.width, image.naturalHeight ?? image.height),
    });
    if (!result.pinned) return false;
    set((state) => ({
      items: [
        ...state.items,
        { ...result.item, moviePrompt: '', progress: 0, thumbnailUrl: image.thumbnailUrl ?? null },
      ],
    }));
    return true;
  },
  remove: (id) => set((state) => ({ items: state.items.filter((item) => item.id !== id) })),
  reorder: (from, to) => {
    const next = reorderItems(get().items, from, to);
    if (!next) return false;
    set({ items: next });
    return true;
  },
  setTiming: (id, timing) => get().patchItem(id, timing),
  patchItem: (id, patch) =>
    set((state) => ({ items: state.items.map((item) => (item.id === id ? { ...item, ...patch } : item)) })),
  setVideoMode: (videoMode) => set({ videoMode }),
  setMovieScript: (movieScript) => set({ movieScript }),
  setMaster: (patch) => set((state) => ({ master: { ...state.master, ...patch } })),
  setAnalysis: (analysis) => set({ analysis }),
  setAnalyzing: (analyzing) => set({ analyzing }),
  clear: () => set({ items: [], master: emptyMaster, analysis: null }),
  restore: (snapshot) =>
    set({
      items: snapshot.items.map((item) => ({ ...item })),
      videoMode: snapshot.videoMode,
      movieScript: snapshot.movieScript,
      master: { ...snapshot.master },
      analysis: null,
      analyzing: false,
    }),
}));

/** The sequence as a session keeps it (a copy). */
export function snapshotSequences(state: SequencesState): SequencesSnapshot {
  return {
    items: state.items.map((item) => ({ ...item })),
    videoMode: state.videoMode,
    movieScript: state.movieScript,
    master: { ...state.master },
  };
}

/**
 * Pins a canvas image to the sequence (spec 5): a new item with the prompt 'Manually pinned: {name}', or the
 * info toast '"{name}" is already in the sequence!' when it is there already. Returns whether it was added.
 */
export function pinToSequence(image: PinnableImage): boolean {
  const added = useSequences.getState().pin(image);
  if (!added) toast.info(sequenceText('alreadyPinned', { name: image.name }));
  return added;
}
