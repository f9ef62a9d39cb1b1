// The multi-image canvas as a saved session (canvas spec 3 "Editor session", data of multi-image-canvas):
// canvasImages, canvasState {zoom, panX, panY}, imageSequence, masterSequence, movieScript, selectedImageIds,
// activeTool, inputMode, videoGenerationMode (plus the image format). Converts between that shape and the
// canvas and sequences stores; reading is tolerant (sessions may come from older builds), but data without
// the required arrays is refused with the spec's validation messages.
import { CANVAS, type CanvasFormat } from '../../../common/api/canvas-images.constants.ts';
import { EDITOR_SESSION_MESSAGES, validateSessionData } from '../../../common/rules/editor-sessions.ts';
import {
  DEFAULT_SEQUENCE_VIDEO_MODE,
  SEQUENCE_LIMITS,
  SEQUENCE_VIDEO_MODES,
  SEQUENCE_VIDEO_STATUSES,
  type SequenceVideoMode,
  type SequenceVideoStatus,
} from '../../../common/rules/sequences.ts';
import type { CanvasImage, CanvasInputMode, CanvasSnapshot, CanvasTool } from '../canvas/store.ts';
import type { SequenceItem, SequencesSnapshot } from '../sequences/store.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const optStr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

const TOOLS: readonly CanvasTool[] = ['select', 'drag', 'pan'];
const INPUT_MODES: readonly CanvasInputMode[] = ['generate', 'upload'];
const FORMATS = Object.keys(CANVAS.formats) as CanvasFormat[];
const VIDEO_MODES = Object.keys(SEQUENCE_VIDEO_MODES) as SequenceVideoMode[];

/** The session data of the canvas (before normaliseSessionData clears the transient flags). */
export function canvasSessionData(canvas: CanvasSnapshot, sequences: SequencesSnapshot): Data {
  return {
    canvasImages: canvas.images.map((img) => ({ ...img, isDragging: false, isSelected: Boolean(img.isSelected) })),
    canvasState: { zoom: canvas.zoom, panX: canvas.panX, panY: canvas.panY, isPanning: false },
    imageSequence: sequences.items.map((item) => ({ ...item })),
    masterSequence: {
      id: 'master',
      items: sequences.items.map((item) => item.id),
      isGeneratingMaster: sequences.master.isGenerating,
      movieScript: sequences.movieScript,
      masterVideoUrl: sequences.master.masterVideoUrl,
      duration: sequences.master.duration,
      videoCount: sequences.master.videoCount,
    },
    movieScript: sequences.movieScript,
    selectedImageIds: [...canvas.selectedIds],
    activeTool: canvas.tool,
    inputMode: canvas.inputMode,
    videoGenerationMode: sequences.videoMode,
    format: canvas.format,
  };
}

function readImage(raw: unknown, index: number): CanvasImage | null {
  if (!isObject(raw) || typeof raw.url !== 'string' || !raw.url) return null;
  return {
    id: str(raw.id, `img-restored-${index}`),
    url: raw.url,
    thumbnailUrl: typeof raw.thumbnailUrl === 'string' ? raw.thumbnailUrl : null,
    x: num(raw.x, 0),
    y: num(raw.y, 0),
    width: num(raw.width, CANVAS.newImage.width),
    height: num(raw.height, CANVAS.newImage.height),
    name: str(raw.name, `Image ${index + 1}`),
    prompt: optStr(raw.prompt),
    assetId: optStr(raw.assetId),
    naturalWidth: typeof raw.naturalWidth === 'number' ? raw.naturalWidth : undefined,
    naturalHeight: typeof raw.naturalHeight === 'number' ? raw.naturalHeight : undefined,
  };
}

function readItem(raw: unknown, index: number): SequenceItem | null {
  if (!isObject(raw) || typeof raw.imageUrl !== 'string') return null;
  const status = oneOf<SequenceVideoStatus>(raw.videoStatus, SEQUENCE_VIDEO_STATUSES, 'pending');
  return {
    id: str(raw.id, `seq-restored-${index}`),
    imageUrl: raw.imageUrl,
    prompt: str(raw.prompt, ''),
    moviePrompt: str(raw.moviePrompt, ''),
    timestamp: num(raw.timestamp, 0),
    originalImageId: str(raw.originalImageId, ''),
    // Nothing polls a restored item: one saved mid-generation waits to be generated again.
    videoStatus: status === 'generating' ? 'pending' : status,
    videoUrl: optStr(raw.videoUrl),
    taskId: optStr(raw.taskId),
    sourceAspectRatio: optStr(raw.sourceAspectRatio),
    startTime: num(raw.startTime, SEQUENCE_LIMITS.defaultStartTime),
    duration: num(raw.duration, SEQUENCE_LIMITS.defaultDuration),
    maxDuration: num(raw.maxDuration, SEQUENCE_LIMITS.maxDuration),
    progress: status === 'completed' ? 100 : 0,
    error: optStr(raw.error),
  };
}

const nullableNum = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Reads saved canvas data back into store snapshots; throws 'Invalid session data: …' on a wrong shape. */
export function readCanvasSession(data: Data): { canvas: CanvasSnapshot; sequences: SequencesSnapshot } {
  const errors = validateSessionData('multi-image-canvas', data);
  if (errors.length > 0) throw new Error(EDITOR_SESSION_MESSAGES.invalid(errors.join(', ')));
  const images = (data.canvasImages as unknown[]).map(readImage).filter((img): img is CanvasImage => img !== null);
  const state = data.canvasState as Data;
  const master = isObject(data.masterSequence) ? data.masterSequence : {};
  const selected = Array.isArray(data.selectedImageIds)
    ? data.selectedImageIds.filter((id): id is string => typeof id === 'string')
    : [];
  return {
    canvas: {
      images,
      selectedIds: selected,
      zoom: num(state.zoom, 1),
      panX: num(state.panX, 0),
      panY: num(state.panY, 0),
      tool: oneOf(data.activeTool, TOOLS, 'select'),
      inputMode: oneOf(data.inputMode, INPUT_MODES, 'generate'),
      format: oneOf(data.format, FORMATS, '4K|TV'),
    },
    sequences: {
      items: (data.imageSequence as unknown[]).map(readItem).filter((item): item is SequenceItem => item !== null),
      videoMode: oneOf(data.videoGenerationMode, VIDEO_MODES, DEFAULT_SEQUENCE_VIDEO_MODE),
      movieScript: str(data.movieScript, str(master.movieScript, '')),
      master: {
        isGenerating: false,
        masterVideoUrl: typeof master.masterVideoUrl === 'string' ? master.masterVideoUrl : null,
        duration: nullableNum(master.duration),
        videoCount: nullableNum(master.videoCount),
      },
    },
  };
}
