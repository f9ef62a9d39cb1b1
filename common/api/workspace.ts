import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { PERSONA_STATUSES } from '../rules/personas.ts';

// The campaign workspace (accounts spec 2.2 Campaigns tab, 2.4, 7 Personas and workspace, 8): the
// personas and videos a user has put aside for their campaigns.

const M = MESSAGES.personas;

const WORKSPACE_ASSET_TYPES = ['persona', 'video'] as const;

/**
 * POST /api/campaign/workspace: `assetId` is a persona id (assetType persona: one of the user's own
 * personas or a public one) or a video asset id (assetType video: the user's own). Adding the same
 * item twice answers 409 with the already-added message.
 */
export const addWorkspaceItemBody = z.object({
  assetId: z.string().trim().min(1).max(64),
  assetType: z.enum(WORKSPACE_ASSET_TYPES, { error: M.assetTypeInvalid }),
  campaignId: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((v) => (v ? v : null)),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type AddWorkspaceItemBody = z.input<typeof addWorkspaceItemBody>;

/** DELETE /api/campaign/workspace?asset_id={id} or ?clear_all=true */
export const removeWorkspaceQuery = z.object({
  asset_id: z.string().trim().min(1).max(64).optional(),
  clear_all: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** What the workspace shows of a persona. */
const workspacePersona = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  avatar: z.string().nullable(),
  status: z.enum(PERSONA_STATUSES),
  tags: z.array(z.string()),
});

/** What the workspace shows of a video asset. */
const workspaceVideo = z.object({
  id: z.string(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
  prompt: z.string().nullable(),
  persona_id: z.string().nullable(),
  status: z.enum(['processing', 'completed', 'failed']),
  created_at: z.string(),
});

const workspaceItem = z.object({
  id: z.string(),
  assetId: z.string(),
  assetType: z.enum(WORKSPACE_ASSET_TYPES),
  campaignId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  /** Set for assetType persona. */
  persona: workspacePersona.nullable(),
  /** Set for assetType video. */
  asset: workspaceVideo.nullable(),
});
export type WorkspaceItem = z.infer<typeof workspaceItem>;

export const workspaceListReply = z.object({ success: z.literal(true), data: z.array(workspaceItem) });
export const workspaceItemReply = z.object({ success: z.literal(true), data: workspaceItem, message: z.string() });
export const workspaceRemoveReply = z.object({
  success: z.literal(true),
  message: z.string(),
  /** How many items were removed. */
  removed: z.number().int(),
});
