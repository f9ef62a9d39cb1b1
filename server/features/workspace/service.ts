import { and, desc, eq, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { addWorkspaceItemBody, removeWorkspaceQuery, WorkspaceItem } from '../../../common/api/workspace.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { campaignWorkspaceItems } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { type AssetRow, getAsset, toAssetDto } from '../assets/service.ts';
import { personaSummaries } from '../personas/service.ts';

// The campaign workspace: personas (own or public) and the user's own videos, kept for their campaigns.

type ItemRow = typeof campaignWorkspaceItems.$inferSelect;
const M = MESSAGES.personas;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VIDEO_TYPES: ReadonlyArray<AssetRow['type']> = ['video', 'video_enhancement'];

async function itemsToDto(ctx: AppContext, userId: string, rows: readonly ItemRow[]): Promise<WorkspaceItem[]> {
  const personas = await personaSummaries(
    ctx,
    userId,
    rows.flatMap((r) => (r.personaId ? [r.personaId] : [])),
  );
  const out: WorkspaceItem[] = [];
  for (const row of rows) {
    const persona = row.personaId ? personas.get(row.personaId) : undefined;
    const asset = row.assetId ? await getAsset(ctx, userId, row.assetId).catch(() => null) : null;
    // A public persona that was made private again (or an asset gone) is no longer shown.
    if (row.assetType === 'persona' && !persona) continue;
    if (row.assetType === 'video' && !asset) continue;
    const dto = asset ? toAssetDto(asset) : null;
    out.push({
      id: row.id,
      assetId: (row.personaId ?? row.assetId) as string,
      assetType: row.assetType,
      campaignId: row.campaignId,
      metadata: row.metadata,
      created_at: row.createdAt.toISOString(),
      persona: persona
        ? {
            id: persona.id,
            name: persona.name,
            description: persona.description,
            avatar: persona.avatar,
            status: persona.status,
            tags: persona.tags,
          }
        : null,
      asset: dto
        ? {
            id: dto.id,
            url: dto.url,
            thumbnail_url: dto.thumbnail_url,
            prompt: dto.prompt,
            persona_id: dto.persona_id,
            status: dto.status,
            created_at: dto.created_at,
          }
        : null,
    });
  }
  return out;
}

/** GET /api/campaign/workspace: the user's items, newest first, with the persona or video they hold. */
export async function listWorkspace(ctx: AppContext, userId: string): Promise<WorkspaceItem[]> {
  const rows = await ctx.db
    .select()
    .from(campaignWorkspaceItems)
    .where(eq(campaignWorkspaceItems.userId, userId))
    .orderBy(desc(campaignWorkspaceItems.createdAt), desc(campaignWorkspaceItems.id));
  return itemsToDto(ctx, userId, rows);
}

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * POST /api/campaign/workspace: a persona the user may use, or one of their video assets (another
 * user's answers 404). The same item twice answers 409 with the already-added message.
 */
export async function addToWorkspace(
  ctx: AppContext,
  userId: string,
  body: z.infer<typeof addWorkspaceItemBody>,
): Promise<WorkspaceItem> {
  const isPersona = body.assetType === 'persona';
  const duplicate = isPersona ? M.alreadyInWorkspace : M.videoAlreadyInWorkspace;
  if (isPersona) {
    await visiblePersona(ctx, userId, body.assetId);
  } else {
    if (!UUID.test(body.assetId)) throw notFound(M.workspaceAssetNotFound);
    const asset = await getAsset(ctx, userId, body.assetId).catch(() => {
      throw notFound(M.workspaceAssetNotFound);
    });
    if (!VIDEO_TYPES.includes(asset.type)) throw badRequest(M.workspaceVideoOnly);
  }
  const target = isPersona
    ? eq(campaignWorkspaceItems.personaId, body.assetId)
    : eq(campaignWorkspaceItems.assetId, body.assetId);
  const [existing] = await ctx.db
    .select({ id: campaignWorkspaceItems.id })
    .from(campaignWorkspaceItems)
    .where(and(eq(campaignWorkspaceItems.userId, userId), target))
    .limit(1);
  if (existing) throw conflict(duplicate);
  const now = ctx.clock.now();
  let row: ItemRow;
  try {
    [row] = await ctx.db
      .insert(campaignWorkspaceItems)
      .values({
        userId,
        assetType: body.assetType,
        personaId: isPersona ? body.assetId : null,
        assetId: isPersona ? null : body.assetId,
        campaignId: body.campaignId,
        metadata: body.metadata ?? {},
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(duplicate);
    throw error;
  }
  const [dto] = await itemsToDto(ctx, userId, [row]);
  return dto;
}

/** DELETE /api/campaign/workspace: one item by asset_id, or everything with clear_all=true. Returns how many went. */
export async function removeFromWorkspace(
  ctx: AppContext,
  userId: string,
  query: z.infer<typeof removeWorkspaceQuery>,
): Promise<number> {
  const mine = eq(campaignWorkspaceItems.userId, userId);
  if (query.clear_all) {
    const removed = await ctx.db
      .delete(campaignWorkspaceItems)
      .where(mine)
      .returning({ id: campaignWorkspaceItems.id });
    return removed.length;
  }
  const id = query.asset_id;
  if (!id) throw badRequest(M.workspaceNeedsTarget);
  if (!UUID.test(id)) throw notFound(M.workspaceItemNotFound);
  const removed = await ctx.db
    .delete(campaignWorkspaceItems)
    .where(
      and(
        mine,
        or(
          eq(campaignWorkspaceItems.personaId, id),
          eq(campaignWorkspaceItems.assetId, id),
          eq(campaignWorkspaceItems.id, id),
        ),
      ),
    )
    .returning({ id: campaignWorkspaceItems.id });
  if (removed.length === 0) throw notFound(M.workspaceItemNotFound);
  return removed.length;
}
