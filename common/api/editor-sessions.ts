import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { EDITOR_SESSION_LIMITS } from '../rules/editor-sessions.ts';
import { isPageImageRef } from './media.constants.ts';

// Saved editor sessions (canvas spec 7). Shapes of `data` per component type are checked by
// validateSessionData in common/rules/editor-sessions.ts so that the spec's exact messages come back.

const name = z.string().trim().min(1, 'Session name is required').max(200);
const componentType = z.string().trim().min(1, 'component_type is required').max(100);
const personaId = z.uuid('persona_id must be a UUID').nullish();
/**
 * A data:image URL (the canvas's JPEG export) or one of the studio's media paths; the sessions list shows it
 * in an <img>, so an external address, javascript: or another data: type answers 400 (issue 27).
 */
const thumbnailUrl = z
  .string()
  .trim()
  .max(2_000_000)
  .refine((v) => v === '' || isPageImageRef(v), MESSAGES.media.imageRefInvalid)
  .nullish();

export const createEditorSessionBody = z.object({
  name,
  component_type: componentType,
  persona_id: personaId,
  thumbnail_url: thumbnailUrl,
  data: z.unknown(),
  /** Ignored: the server measures the serialized data itself. */
  size_bytes: z.number().optional(),
});
export type CreateEditorSessionBody = z.input<typeof createEditorSessionBody>;

export const updateEditorSessionBody = z.object({
  name: name.optional(),
  component_type: componentType.optional(),
  persona_id: personaId,
  thumbnail_url: thumbnailUrl,
  data: z.unknown().optional(),
  size_bytes: z.number().optional(),
});
export type UpdateEditorSessionBody = z.input<typeof updateEditorSessionBody>;

export const listEditorSessionsQuery = z.object({
  component_type: z.string().trim().min(1).max(100).optional(),
  persona_id: z.uuid('persona_id must be a UUID').optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(EDITOR_SESSION_LIMITS.maxListLimit)
    .default(EDITOR_SESSION_LIMITS.hookDefaultLimit),
  cursor: z.string().trim().max(200).optional(),
});

export const editorSessionIdParams = z.object({ id: z.string().trim().min(1).max(100) });

/** The autosave of one tool: GET, PUT (create or replace) and DELETE /api/editor-sessions/autosave/{component_type}. */
export const autosaveParams = z.object({ component_type: componentType });

export const putAutosaveBody = z.object({
  data: z.unknown(),
  thumbnail_url: thumbnailUrl,
  persona_id: personaId,
});
export type PutAutosaveBody = z.input<typeof putAutosaveBody>;

const summaryFields = {
  id: z.string(),
  name: z.string(),
  component_type: z.string(),
  persona_id: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  size_bytes: z.number(),
  /** True for the tool's autosave (one per user and tool), false for sessions saved by hand. */
  autosave: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** A list row: everything but `data` (load one session with GET /api/editor-sessions/{id}). */
const editorSessionSummary = z.object(summaryFields);
export type EditorSessionSummary = z.infer<typeof editorSessionSummary>;

const editorSession = z.object({ ...summaryFields, data: z.record(z.string(), z.unknown()) });
export type EditorSession = z.infer<typeof editorSession>;

export const editorSessionReply = z.object({ success: z.literal(true), data: editorSession });

/** GET of a tool's autosave: null when there is none (not a 404, which every fresh canvas would log). */
export const autosaveReply = z.object({ success: z.literal(true), data: editorSession.nullable() });

export const listEditorSessionsReply = z.object({
  success: z.literal(true),
  data: z.array(editorSessionSummary),
  pagination: z.object({ has_more: z.boolean(), next_cursor: z.string().nullable() }),
});
export type ListEditorSessionsReply = z.infer<typeof listEditorSessionsReply>;
