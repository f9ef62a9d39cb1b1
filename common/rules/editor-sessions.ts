// Saved editor sessions (canvas spec 3, 4, 5, 8, 9): the component types, their data shapes,
// the size limit and the normalisation applied before saving. Pure; used by the web and the server.

export const EDITOR_SESSION_TYPES = [
  'multi-image-canvas',
  'magic-selector',
  'multi-reference',
  'multi-composition',
] as const;
export type EditorSessionType = (typeof EDITOR_SESSION_TYPES)[number];

export const EDITOR_SESSION_LIMITS = {
  /** Serialized data limit (spec 9): 10 MB. */
  maxBytes: 10 * 1024 * 1024,
  maxMb: 10,
  /** The session list shows 10 a page; the hook asks for 20 by default; the server caps at 100. */
  listPageSize: 10,
  hookDefaultLimit: 20,
  maxListLimit: 100,
  /** Loading a session into another tool: poll every 100 ms, up to 20 times, for it to mount. */
  mountPollMs: 100,
  mountPollAttempts: 20,
} as const;

/** The stored name of a tool's autosave (the web shows its own translated label for it). */
export const AUTOSAVE_SESSION_NAME = 'Autosave';

export const EDITOR_SESSION_MESSAGES = {
  notObject: 'Session data must be an object',
  canvasImages: 'canvasImages must be an array',
  canvasState: 'canvasState must be an object',
  imageSequence: 'imageSequence must be an array',
  baseImage: 'baseImage must be a string or null',
  prompt: 'prompt must be a string',
  mode: 'mode must be a string',
  referenceImages: 'referenceImages must be an array',
  layers: 'layers must be an array',
  canvasSize: 'canvasWidth and canvasHeight must be numbers',
  unsupportedType: (type: string) => `Unsupported component type: ${type}`,
  tooLarge: (mb: string) => `Session data too large: ${mb}MB (max: ${EDITOR_SESSION_LIMITS.maxMb}MB)`,
  invalid: (list: string) => `Invalid session data: ${list}`,
  noData: 'No session data to save',
  saved: (name: string) => `Session "${name}" saved successfully!`,
  saveFailed: 'Failed to save session',
  notFound: 'Session not found',
  loadListFailed: 'Failed to load sessions',
  updateFailed: 'Failed to update session',
  deleteFailed: 'Failed to delete session',
  loadFailed: 'Failed to load session',
  componentNotReady: 'Failed to load session - component not ready',
  deleted: 'Session deleted successfully',
  cannotSave: 'Cannot save session in current state',
  /** Spec: unavailable storage (the sessions table or the database cannot be reached). */
  databaseSetupRequired: 'Database setup required',
} as const;

function isEditorSessionType(value: string): value is EditorSessionType {
  return (EDITOR_SESSION_TYPES as readonly string[]).includes(value);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** The shape errors of `data` for `componentType` (spec 5); empty when it is valid. */
export function validateSessionData(componentType: string, data: unknown): string[] {
  const m = EDITOR_SESSION_MESSAGES;
  if (!isEditorSessionType(componentType)) return [m.unsupportedType(componentType)];
  if (!isObject(data)) return [m.notObject];
  const errors: string[] = [];
  switch (componentType) {
    case 'multi-image-canvas':
      if (!Array.isArray(data.canvasImages)) errors.push(m.canvasImages);
      if (!isObject(data.canvasState)) errors.push(m.canvasState);
      if (!Array.isArray(data.imageSequence)) errors.push(m.imageSequence);
      break;
    case 'magic-selector':
      if (typeof data.baseImage !== 'string' && data.baseImage !== null) errors.push(m.baseImage);
      if (typeof data.prompt !== 'string') errors.push(m.prompt);
      if (typeof data.mode !== 'string') errors.push(m.mode);
      break;
    case 'multi-reference':
      if (!Array.isArray(data.referenceImages)) errors.push(m.referenceImages);
      if (typeof data.prompt !== 'string') errors.push(m.prompt);
      break;
    case 'multi-composition':
      if (!Array.isArray(data.layers)) errors.push(m.layers);
      if (!isNumber(data.canvasWidth) || !isNumber(data.canvasHeight)) errors.push(m.canvasSize);
      break;
  }
  return errors;
}

/** UTF-8 size in bytes of the serialized data. */
export function sessionDataSize(data: unknown): number {
  return new TextEncoder().encode(JSON.stringify(data) ?? '').byteLength;
}

/** 'Session data too large: {n}MB (max: 10MB)' when over the limit, else null. */
export function sessionSizeError(sizeBytes: number): string | null {
  if (sizeBytes <= EDITOR_SESSION_LIMITS.maxBytes) return null;
  return EDITOR_SESSION_MESSAGES.tooLarge((sizeBytes / 1024 / 1024).toFixed(2));
}

const normaliseStatus = (item: unknown): unknown =>
  isObject(item) && 'videoStatus' in item
    ? { ...item, videoStatus: item.videoStatus === 'completed' ? 'completed' : 'pending' }
    : item;

const clearFlags = (item: unknown): unknown =>
  isObject(item) ? { ...item, isDragging: false, isSelected: false } : item;

/**
 * The state as it should be saved (spec 4): sequence statuses other than completed become pending,
 * the master's generating flag is reset, drag and selection flags are cleared and the pan state is
 * reset (zoom and pan offsets are kept). Only multi-image-canvas data carries such transient state;
 * other types are returned as a shallow copy. Never mutates its input.
 */
export function normaliseSessionData<T>(componentType: string, data: T): T {
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = { ...data };
  if (componentType !== 'multi-image-canvas') return out as T;
  if (Array.isArray(out.canvasImages)) out.canvasImages = out.canvasImages.map(clearFlags);
  if (Array.isArray(out.imageSequence)) out.imageSequence = out.imageSequence.map(normaliseStatus);
  if (isObject(out.masterSequence)) {
    const master: Record<string, unknown> = { ...out.masterSequence, isGeneratingMaster: false };
    if (Array.isArray(master.items)) master.items = master.items.map(normaliseStatus);
    out.masterSequence = master;
  }
  if (isObject(out.canvasState)) {
    out.canvasState = { ...out.canvasState, isPanning: false, lastPanPoint: { x: 0, y: 0 } };
  }
  if ('isPanning' in out) out.isPanning = false;
  if ('lastPanPoint' in out) out.lastPanPoint = { x: 0, y: 0 };
  return out as T;
}
