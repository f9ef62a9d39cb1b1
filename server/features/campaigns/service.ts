import { and, count, desc, eq, exists, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { CampaignStatus } from '../../../common/api/campaigns.constants.ts';
import type {
  Campaign,
  CampaignMaterial,
  CampaignPlan,
  campaignPlanBody,
  createCampaignBody,
  listCampaignsQuery,
  updateCampaignBody,
} from '../../../common/api/campaigns.ts';
import { eurosToCents } from '../../../common/api/money.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  budgetShortfallCents,
  campaignDateErrors,
  canTransition,
  earliestLocalDate,
  insufficientFundsMessage,
  isEditable,
  suggestedTopupEuros,
} from '../../../common/rules/campaigns.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { campaignApplications, campaignMaterials, campaigns, collaborations, users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { ownedMediaObject, storedKeyOf } from '../../platform/media/inputs.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { chargedTextAgent } from '../../platform/metering/text-agents.ts';
import { holdCampaignBudget, moneyBalance, releaseCampaignBudget } from '../../platform/money/ledger.ts';
import { assertBrandNotRejected } from '../account/profiles.ts';
import { getAsset, toAssetDto } from '../assets/service.ts';
import { writeCampaignPlan } from './plan.ts';
import { type CampaignRow, campaignDtos, materialDtos, seesPublicCardOnly, type Viewer, viewerOf } from './present.ts';

const M = MESSAGES.campaigns;
type CreateInput = z.output<typeof createCampaignBody>;
type UpdateInput = z.output<typeof updateCampaignBody>;
type ListQuery = z.output<typeof listCampaignsQuery>;

function requireBrand(user: UserRow): void {
  if (user.role !== 'brand') throw forbidden(M.brandOnly);
}

/** 402 'Insufficient funds. Need $X more.' from the ledger's insufficient_funds error. */
function asInsufficientFunds(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'insufficient_funds') return error;
  const d = (error.details ?? {}) as { requiredCents?: number; balanceCents?: number };
  const shortfallCents = budgetShortfallCents(d.requiredCents ?? 0, d.balanceCents ?? 0);
  return new AppError(402, 'insufficient_funds', insufficientFundsMessage(shortfallCents), {
    requiredCents: d.requiredCents,
    balanceCents: d.balanceCents,
    shortfallCents,
    suggestedTopup: suggestedTopupEuros(shortfallCents),
  });
}

function assertDates(ctx: AppContext, dates: { startDate?: string | null; endDate?: string | null }): void {
  const errors = campaignDateErrors(dates, earliestLocalDate(ctx.clock.now()));
  const first = errors.startDate ?? errors.endDate;
  if (first) {
    const fieldErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [v]]));
    throw new AppError(400, 'validation', first, { fieldErrors });
  }
}

// ---- Plan ----

/**
 * POST /api/campaigns/plan (brand): the budget must fit the wallet, like the form says. Free on the
 * local writer; TEXT_AGENTS.creditsPerCall when a vendor LLM writes (refunded on failure).
 */
export async function buildPlan(
  ctx: AppContext,
  user: UserRow,
  body: z.output<typeof campaignPlanBody>,
): Promise<CampaignPlan> {
  requireBrand(user);
  await assertBrandNotRejected(ctx, user);
  const wallet = await moneyBalance(ctx.db, user.id, 'wallet');
  const shortfall = budgetShortfallCents(eurosToCents(body.budget), wallet);
  if (shortfall > 0)
    throw new AppError(402, 'insufficient_funds', insufficientFundsMessage(shortfall), {
      requiredCents: eurosToCents(body.budget),
      balanceCents: wallet,
      shortfallCents: shortfall,
      suggestedTopup: suggestedTopupEuros(shortfall),
    });
  return chargedTextAgent(ctx, { userId: user.id, agent: 'campaign-plan', label: 'Campaign plan' }, () =>
    writeCampaignPlan(ctx, body),
  );
}

// ---- Materials ----

interface NewMaterial {
  assetId: string | null;
  type: 'image' | 'video';
  url: string;
  prompt: string | null;
  thumbnail: string | null;
}

/** The brand's own assets and studio media as materials (404 when one is not theirs). */
async function resolveMaterials(ctx: AppContext, brandId: string, body: CreateInput): Promise<NewMaterial[]> {
  const out: NewMaterial[] = [];
  for (const id of [...new Set(body.ai_asset_ids)]) {
    const asset = await getAsset(ctx, brandId, id);
    const type =
      asset.type === 'video' || asset.type === 'video_enhancement'
        ? 'video'
        : asset.type === 'audio'
          ? null
          : ('image' as const);
    if (!type) throw badRequest(M.materialType);
    const dto = toAssetDto(asset);
    out.push({
      assetId: asset.id,
      type,
      url: asset.url,
      prompt: asset.prompt,
      thumbnail: dto.thumbnail_url ?? (type === 'image' ? asset.url : null),
    });
  }
  for (const material of body.sessionMaterials) {
    const key = storedKeyOf(ctx.config, material.url);
    if (!key) throw badRequest(M.materialType);
    const row = await ownedMediaObject(ctx, brandId, key);
    const type = row.contentType.startsWith('image/') ? 'image' : row.contentType.startsWith('video/') ? 'video' : null;
    if (!type) throw badRequest(M.materialType);
    const url = mediaUrl(row.key, row.contentType, row.storageClass);
    if (out.some((m) => m.url === url)) continue;
    out.push({ assetId: null, type, url, prompt: material.prompt ?? null, thumbnail: type === 'image' ? url : null });
  }
  return out;
}

// ---- Create, edit, delete ----

function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

async function holdFor(tx: Db, row: CampaignRow): Promise<void> {
  try {
    await holdCampaignBudget(tx, {
      brandId: row.brandUserId,
      campaignId: row.id,
      amountCents: row.budgetCents,
      description: `Budget held for "${row.title}"`,
    });
  } catch (error) {
    throw asInsufficientFunds(error);
  }
}

/**
 * POST /api/campaigns (brand). Opening holds the whole budget from the wallet in the same
 * transaction as the insert: a wallet that cannot cover it refuses the campaign (402), and
 * concurrent creations never take the wallet below zero.
 */
export async function createCampaign(ctx: AppContext, user: UserRow, body: CreateInput): Promise<Campaign> {
  requireBrand(user);
  await assertBrandNotRejected(ctx, user);
  assertDates(ctx, body);
  const materials = await resolveMaterials(ctx, user.id, body);
  const plan = body.plan ?? null;
  const audience = body.targetAudience ?? plan?.audience;
  const durationDays =
    body.durationDays ??
    plan?.durationDays ??
    (body.startDate && body.endDate ? daysBetween(body.startDate, body.endDate) : null);
  const id = await ctx.db.transaction(async (tx) => {
    // The brand's row first: inserting the campaign takes a key-share lock on it, and the hold's
    // FOR UPDATE after that would deadlock with a concurrent creation holding the same share.
    if (body.status === 'open')
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const [row] = await tx
      .insert(campaigns)
      .values({
        brandUserId: user.id,
        title: body.title,
        description: body.description,
        objective: body.objective,
        thumbnailUrl: materials.find((m) => m.thumbnail)?.thumbnail ?? null,
        status: body.status,
        budgetCents: eurosToCents(body.budget),
        heldCents: 0,
        category: body.category,
        platforms: body.platforms,
        contentTypes: body.contentTypes,
        kpis: body.kpis,
        deliverables: body.deliverables.length > 0 ? body.deliverables : (plan?.deliverables ?? []),
        targetAudience: audience
          ? { ageMin: audience.ageMin, ageMax: audience.ageMax, description: audience.description ?? '' }
          : {},
        durationDays,
        startDate: body.startDate ?? null,
        endDate: body.endDate ?? null,
        plan: plan as Record<string, unknown> | null,
        sessionMaterials: body.sessionMaterials,
      })
      .returning();
    if (materials.length > 0) {
      await tx.insert(campaignMaterials).values(
        materials.map((m) => ({
          campaignId: row.id,
          assetId: m.assetId,
          type: m.type,
          url: m.url,
          prompt: m.prompt,
        })),
      );
    }
    if (row.status === 'open') {
      await holdFor(tx, row);
      await tx.update(campaigns).set({ heldCents: row.budgetCents }).where(eq(campaigns.id, row.id));
    }
    return row.id;
  });
  return getCampaign(ctx, user, id);
}

async function lockOwned(tx: Db, brandId: string, id: string): Promise<CampaignRow> {
  const [row] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.brandUserId, brandId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

const EDIT_FIELDS = [
  'title',
  'description',
  'objective',
  'budget',
  'category',
  'platforms',
  'contentTypes',
  'kpis',
  'deliverables',
  'targetAudience',
  'durationDays',
  'startDate',
  'endDate',
] as const;

/**
 * PATCH /api/campaigns/{id} (owner brand): edits a draft, then applies the status change:
 * draft→open holds the budget, open→running, open|running→completed releases what is still held
 * (refused while collaborations are active; pending applications are declined).
 */
export async function updateCampaign(ctx: AppContext, user: UserRow, id: string, body: UpdateInput): Promise<Campaign> {
  requireBrand(user);
  if (body.status === 'open') await assertBrandNotRejected(ctx, user);
  await ctx.db.transaction(async (tx) => {
    let row = await lockOwned(tx, user.id, id);
    const edits = EDIT_FIELDS.filter((f) => body[f] !== undefined);
    if (edits.length > 0) {
      if (!isEditable(row.status)) throw conflict(M.onlyDraftsEditable);
      const startDate = body.startDate !== undefined ? body.startDate : row.startDate;
      const endDate = body.endDate !== undefined ? body.endDate : row.endDate;
      assertDates(ctx, { startDate, endDate });
      const [updated] = await tx
        .update(campaigns)
        .set({
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.objective !== undefined ? { objective: body.objective } : {}),
          ...(body.budget !== undefined ? { budgetCents: eurosToCents(body.budget) } : {}),
          ...(body.category !== undefined ? { category: body.category } : {}),
          ...(body.platforms !== undefined ? { platforms: body.platforms } : {}),
          ...(body.contentTypes !== undefined ? { contentTypes: body.contentTypes } : {}),
          ...(body.kpis !== undefined ? { kpis: body.kpis } : {}),
          ...(body.deliverables !== undefined ? { deliverables: body.deliverables } : {}),
          ...(body.targetAudience !== undefined ? { targetAudience: body.targetAudience } : {}),
          ...(body.durationDays !== undefined ? { durationDays: body.durationDays } : {}),
          startDate: startDate ?? null,
          endDate: endDate ?? null,
          updatedAt: sql`now()`,
        })
        .where(eq(campaigns.id, id))
        .returning();
      row = updated;
    }
    if (body.status && body.status !== row.status) await transition(ctx, tx, row, body.status);
  });
  return getCampaign(ctx, user, id);
}

async function transition(ctx: AppContext, tx: Db, row: CampaignRow, to: CampaignStatus): Promise<void> {
  if (!canTransition(row.status, to)) throw conflict(M.invalidTransition(row.status, to));
  const now = ctx.clock.now();
  if (to === 'open') {
    assertDates(ctx, { startDate: row.startDate, endDate: row.endDate });
    await holdFor(tx, row);
    await tx
      .update(campaigns)
      .set({ status: 'open', heldCents: row.budgetCents, updatedAt: now })
      .where(eq(campaigns.id, row.id));
    return;
  }
  if (to === 'running') {
    await tx.update(campaigns).set({ status: 'running', updatedAt: now }).where(eq(campaigns.id, row.id));
    return;
  }
  const [active] = await tx
    .select({ n: count() })
    .from(collaborations)
    .where(and(eq(collaborations.campaignId, row.id), eq(collaborations.status, 'active')));
  if (Number(active?.n ?? 0) > 0) throw conflict(M.activeCollaborations);
  await releaseCampaignBudget(tx, {
    brandId: row.brandUserId,
    campaignId: row.id,
    amountCents: row.heldCents,
    description: `Unspent budget of "${row.title}" returned`,
  });
  await tx.update(campaigns).set({ status: 'completed', heldCents: 0, updatedAt: now }).where(eq(campaigns.id, row.id));
  await tx
    .update(campaignApplications)
    .set({ status: 'declined', decidedAt: now, updatedAt: now })
    .where(and(eq(campaignApplications.campaignId, row.id), eq(campaignApplications.status, 'pending')));
}

/** DELETE /api/campaigns/{id} (owner brand): drafts only; a draft never holds money. */
export async function deleteCampaign(ctx: AppContext, user: UserRow, id: string): Promise<void> {
  requireBrand(user);
  await ctx.db.transaction(async (tx) => {
    const row = await lockOwned(tx, user.id, id);
    if (!isEditable(row.status)) throw conflict(M.onlyDraftsDeletable);
    await tx.delete(campaigns).where(eq(campaigns.id, id));
  });
}

// ---- Reads ----

/** The creator has an application (not withdrawn) or a collaboration on the campaign. */
const involves = (db: Db, creatorId: string) =>
  or(
    exists(
      db
        .select({ one: sql`1` })
        .from(campaignApplications)
        .where(
          and(
            eq(campaignApplications.campaignId, campaigns.id),
            eq(campaignApplications.creatorUserId, creatorId),
            ne(campaignApplications.status, 'withdrawn'),
          ),
        ),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(collaborations)
        .where(and(eq(collaborations.campaignId, campaigns.id), eq(collaborations.creatorUserId, creatorId))),
    ),
  );

/**
 * The campaign if the viewer may see it: its brand, an admin, another brand (its public card) or an approved
 * creator when it is open or running, or when they applied to it or collaborate on it. Anyone else: 404.
 */
export async function visibleCampaign(ctx: AppContext, viewer: Viewer, id: string): Promise<CampaignRow> {
  const [row] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!row) throw notFound();
  if (row.brandUserId === viewer.id || viewer.role === 'admin') return row;
  const live = row.status === 'open' || row.status === 'running';
  if (live && viewer.role === 'brand') return row;
  if (viewer.approvedCreator) {
    if (live) return row;
    const [mine] = await ctx.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.id, id), involves(ctx.db, viewer.id)));
    if (mine) return row;
  }
  throw notFound();
}

export async function getCampaign(ctx: AppContext, user: UserRow, id: string): Promise<Campaign> {
  const viewer = viewerOf(user);
  const row = await visibleCampaign(ctx, viewer, id);
  const [dto] = await campaignDtos(ctx, viewer, [row]);
  return dto;
}

/**
 * The campaign when the viewer may read its own records (materials, collaborations): as visibleCampaign, except
 * that another brand — which sees the public card only — gets 404.
 */
export async function campaignWithRecords(ctx: AppContext, viewer: Viewer, id: string): Promise<CampaignRow> {
  const row = await visibleCampaign(ctx, viewer, id);
  if (seesPublicCardOnly(viewer, row)) throw notFound();
  return row;
}

export async function campaignMaterialsFor(ctx: AppContext, user: UserRow, id: string): Promise<CampaignMaterial[]> {
  const row = await campaignWithRecords(ctx, viewerOf(user), id);
  return materialDtos(ctx, row.id);
}

export interface CampaignPage {
  data: Campaign[];
  pagination: { offset: number; limit: number; hasMore: boolean; total: number };
}

/**
 * GET /api/campaigns. `view=my`: a brand's (or admin's) own campaigns, or the campaigns an approved
 * creator applied to or collaborates on. Otherwise the pool: approved creators (open or running
 * campaigns; open by default), brands (the same, read-only) and admins (any status); unapproved creators 403.
 */
export async function listCampaigns(ctx: AppContext, user: UserRow, query: ListQuery): Promise<CampaignPage> {
  const viewer = viewerOf(user);
  const unapproved = user.role === 'creator' && !viewer.approvedCreator;
  if (unapproved) throw forbidden(MESSAGES.approval.gateBody, 'approval_required');
  const conditions = [];
  if (query.view === 'my') {
    conditions.push(user.role === 'creator' ? involves(ctx.db, user.id) : eq(campaigns.brandUserId, user.id));
    if (query.status && query.status !== 'all') conditions.push(eq(campaigns.status, query.status));
  } else {
    const status = query.status ?? 'open';
    // Creators and brands see live campaigns (spec 2.1: brands browse the pool too; only creators apply).
    if (user.role === 'creator' || user.role === 'brand') {
      if (status === 'draft' || status === 'completed') throw forbidden(M.poolStatusFilter);
      conditions.push(status === 'all' ? inArray(campaigns.status, ['open', 'running']) : eq(campaigns.status, status));
    } else if (status !== 'all') conditions.push(eq(campaigns.status, status));
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(query.limit)
      .offset(query.offset),
    ctx.db.select({ n: count() }).from(campaigns).where(where),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    data: await campaignDtos(ctx, viewer, rows),
    pagination: { offset: query.offset, limit: query.limit, hasMore: query.offset + rows.length < n, total: n },
  };
}
