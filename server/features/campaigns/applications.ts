import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ActiveCollaboration,
  Application,
  applyBody,
  CampaignCollaboration,
  Deliverable,
} from '../../../common/api/campaigns.ts';
import { centsToEuros, eurosToCents, formatAmount, formatEuros } from '../../../common/api/money.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { acceptsApplications } from '../../../common/rules/campaigns.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { campaignApplications, campaignMaterials, campaigns, collaborations } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { creditMoney } from '../../platform/money/ledger.ts';
import { deliverNotifications, recordNotification } from '../notifications/service.ts';
import {
  type ApplicationRow,
  applicationDtos,
  type CampaignRow,
  type CollaborationRow,
  collaborationDtos,
  peopleOf,
  viewerOf,
} from './present.ts';
import { collaborationProgress, progressOrNone } from './progress.ts';
import { campaignWithRecords, visibleCampaign } from './service.ts';

// Applications and collaborations. A creator applies to an open campaign with a message and a rate;
// the brand accepts (an active collaboration for that rate) or declines; the creator may withdraw a
// pending application. Completing a collaboration pays the agreed amount from the campaign's held
// budget into the creator's earnings, once.

const M = MESSAGES.campaigns;

async function oneApplication(deps: Pick<AppContext, 'db' | 'config' | 'clock'>, row: ApplicationRow) {
  const [dto] = await applicationDtos(deps, [row]);
  return dto;
}

/** POST /api/campaigns/{id}/applications (approved creator, open campaign, one per creator). */
export async function applyToCampaign(
  ctx: AppContext,
  user: UserRow,
  campaignId: string,
  body: z.output<typeof applyBody>,
): Promise<Application> {
  const viewer = viewerOf(user);
  if (!viewer.approvedCreator) throw forbidden(M.applyCreatorOnly);
  const campaign = await visibleCampaign(ctx, viewer, campaignId);
  if (!acceptsApplications(campaign.status)) throw conflict(M.notOpen);
  const rateCents = eurosToCents(body.rate);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(campaignApplications)
      .values({ campaignId, creatorUserId: user.id, message: body.message, rateCents })
      .onConflictDoNothing()
      .returning();
    // A withdrawn application may be sent again; any other earlier one stands.
    const [application] = inserted
      ? [inserted]
      : await tx
          .update(campaignApplications)
          .set({ status: 'pending', message: body.message, rateCents, decidedAt: null, createdAt: now, updatedAt: now })
          .where(
            and(
              eq(campaignApplications.campaignId, campaignId),
              eq(campaignApplications.creatorUserId, user.id),
              eq(campaignApplications.status, 'withdrawn'),
            ),
          )
          .returning();
    if (!application) throw conflict(M.alreadyApplied);
    await recordNotification(tx, now, {
      userId: campaign.brandUserId,
      kind: 'application.received',
      subject: `New application to “${campaign.title}”`,
      lines: [
        `${user.firstName} ${user.lastName} applied for ${formatEuros(rateCents)}:`,
        `“${body.message}”`,
        'Accept or decline it on the campaign page.',
      ],
      path: `/dashboard/campaigns/${campaignId}/manage`,
    });
    return application;
  });
  await deliverNotifications(ctx, campaign.brandUserId);
  return oneApplication(ctx, row);
}

/** GET /api/campaigns/{id}/applications (owner brand or admin), newest first. */
export async function listCampaignApplications(
  ctx: AppContext,
  user: UserRow,
  campaignId: string,
): Promise<Application[]> {
  const [row] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!row || (row.brandUserId !== user.id && user.role !== 'admin')) throw notFound();
  const rows = await ctx.db
    .select()
    .from(campaignApplications)
    .where(eq(campaignApplications.campaignId, campaignId))
    .orderBy(desc(campaignApplications.createdAt), desc(campaignApplications.id));
  return applicationDtos(ctx, rows);
}

/** GET /api/applications/my: the caller's own applications, newest first. */
export async function myApplications(ctx: AppContext, user: UserRow): Promise<Application[]> {
  const rows = await ctx.db
    .select()
    .from(campaignApplications)
    .where(eq(campaignApplications.creatorUserId, user.id))
    .orderBy(desc(campaignApplications.createdAt), desc(campaignApplications.id));
  return applicationDtos(ctx, rows);
}

/** The campaign, locked for update, when the caller is its brand; else 404. */
async function lockBrandCampaign(tx: Db, user: UserRow, campaignId: string): Promise<CampaignRow> {
  const [campaign] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.brandUserId, user.id)))
    .for('update');
  if (!campaign) throw notFound();
  return campaign;
}

/** The application and its campaign, locked, when the caller is the campaign's brand; else 404. */
async function lockForBrand(
  tx: Db,
  user: UserRow,
  applicationId: string,
): Promise<{ application: ApplicationRow; campaign: CampaignRow }> {
  const [found] = await tx
    .select({ campaignId: campaignApplications.campaignId })
    .from(campaignApplications)
    .where(eq(campaignApplications.id, applicationId));
  if (!found) throw notFound();
  // Campaign first, then its rows: the order every money-moving path takes.
  const campaign = await lockBrandCampaign(tx, user, found.campaignId);
  const [application] = await tx
    .select()
    .from(campaignApplications)
    .where(eq(campaignApplications.id, applicationId))
    .for('update');
  if (!application) throw notFound();
  return { application, campaign };
}

/** Held budget not yet promised to active collaborations, in cents. */
async function uncommittedCents(tx: Db, campaign: CampaignRow): Promise<number> {
  const [row] = await tx
    .select({ committed: sql<number>`coalesce(sum(${collaborations.agreedCents}), 0)::int` })
    .from(collaborations)
    .where(and(eq(collaborations.campaignId, campaign.id), eq(collaborations.status, 'active')));
  return campaign.heldCents - Number(row?.committed ?? 0);
}

/**
 * POST /api/applications/{id}/accept (owner brand): the pending application becomes an active
 * collaboration for its rate, when the campaign (open or running) still holds enough budget that is
 * not already promised to its other active collaborations (409 otherwise).
 */
export async function acceptApplication(ctx: AppContext, user: UserRow, applicationId: string): Promise<Application> {
  const row = await ctx.db.transaction(async (tx) => {
    const { application, campaign } = await lockForBrand(tx, user, applicationId);
    if (application.status !== 'pending') throw conflict(M.applicationNotPending);
    if (campaign.status !== 'open' && campaign.status !== 'running') throw conflict(M.campaignClosed);
    const available = await uncommittedCents(tx, campaign);
    if (application.rateCents > available) throw conflict(M.budgetNotCovered(formatAmount(Math.max(0, available))));
    const now = ctx.clock.now();
    const [accepted] = await tx
      .update(campaignApplications)
      .set({ status: 'accepted', decidedAt: now, updatedAt: now })
      .where(eq(campaignApplications.id, application.id))
      .returning();
    await tx.insert(collaborations).values({
      campaignId: campaign.id,
      creatorUserId: application.creatorUserId,
      applicationId: application.id,
      status: 'active',
      agreedCents: application.rateCents,
      deliverables: campaign.deliverables,
    });
    await recordNotification(tx, now, {
      userId: application.creatorUserId,
      kind: 'application.accepted',
      subject: `You're in: “${campaign.title}” accepted your application`,
      lines: [
        `The brand accepted your application for ${formatEuros(application.rateCents)}.`,
        'Your collaboration is active: its brief, materials and deliverables are in My Campaigns.',
      ],
      path: '/dashboard?view=myCampaigns',
    });
    return accepted;
  });
  await deliverNotifications(ctx, row.creatorUserId);
  return oneApplication(ctx, row);
}

/** POST /api/applications/{id}/decline (owner brand): a pending application is declined. */
export async function declineApplication(ctx: AppContext, user: UserRow, applicationId: string): Promise<Application> {
  const row = await ctx.db.transaction(async (tx) => {
    const { application, campaign } = await lockForBrand(tx, user, applicationId);
    if (application.status !== 'pending') throw conflict(M.applicationNotPending);
    const now = ctx.clock.now();
    const [declined] = await tx
      .update(campaignApplications)
      .set({ status: 'declined', decidedAt: now, updatedAt: now })
      .where(eq(campaignApplications.id, application.id))
      .returning();
    await recordNotification(tx, now, {
      userId: application.creatorUserId,
      kind: 'application.declined',
      subject: `Your application to “${campaign.title}” was declined`,
      lines: ['The brand chose other creators this time. Other open campaigns are in the campaigns pool.'],
      path: '/dashboard?view=campaignsPool',
    });
    return declined;
  });
  await deliverNotifications(ctx, row.creatorUserId);
  return oneApplication(ctx, row);
}

/** POST /api/applications/{id}/withdraw (the creator who applied): a pending application is withdrawn. */
export async function withdrawApplication(ctx: AppContext, user: UserRow, applicationId: string): Promise<Application> {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select()
    .from(campaignApplications)
    .where(and(eq(campaignApplications.id, applicationId), eq(campaignApplications.creatorUserId, user.id)));
  if (!row) throw notFound();
  const [withdrawn] = await ctx.db
    .update(campaignApplications)
    .set({ status: 'withdrawn', decidedAt: now, updatedAt: now })
    .where(and(eq(campaignApplications.id, applicationId), eq(campaignApplications.status, 'pending')))
    .returning();
  if (!withdrawn) throw conflict(M.applicationNotPending);
  return oneApplication(ctx, withdrawn);
}

// ---- Collaborations ----

/** GET /api/campaigns/{id}/collaborations: everyone who may see the campaign. */
export async function campaignCollaborations(
  ctx: AppContext,
  user: UserRow,
  campaignId: string,
): Promise<CampaignCollaboration[]> {
  const campaign = await campaignWithRecords(ctx, viewerOf(user), campaignId);
  const rows = await ctx.db
    .select()
    .from(collaborations)
    .where(eq(collaborations.campaignId, campaign.id))
    .orderBy(collaborations.createdAt, collaborations.id);
  const privileged = campaign.brandUserId === user.id || user.role === 'admin';
  return collaborationDtos(ctx, rows, (row) => privileged || row.creatorUserId === user.id);
}

/** GET /api/collaborations/my-active: the caller's active collaborations (spec 3 Collaboration). */
export async function myActiveCollaborations(ctx: AppContext, user: UserRow): Promise<ActiveCollaboration[]> {
  const rows = await ctx.db
    .select({ collaboration: collaborations, campaign: campaigns })
    .from(collaborations)
    .innerJoin(campaigns, eq(campaigns.id, collaborations.campaignId))
    .where(and(eq(collaborations.creatorUserId, user.id), eq(collaborations.status, 'active')))
    .orderBy(desc(collaborations.createdAt), desc(collaborations.id));
  const people = await peopleOf(
    ctx,
    rows.map((r) => r.campaign.brandUserId),
  );
  const progress = await collaborationProgress(
    ctx,
    rows.map((r) => ({ id: r.collaboration.id, deliverables: r.collaboration.deliverables as Deliverable[] })),
  );
  return rows.map(({ collaboration: c, campaign }) => {
    const brand = people.get(campaign.brandUserId);
    return {
      collaboration_id: c.id,
      campaign_id: campaign.id,
      campaign_title: campaign.title,
      brand_name: brand?.name ?? '',
      brand_logo: brand?.image ?? null,
      campaign_description: campaign.description,
      status: c.status,
      platforms: campaign.platforms,
      agreed_amount: centsToEuros(c.agreedCents),
      agreedCents: c.agreedCents,
      ...progressOrNone(progress.get(c.id)),
      created_at: c.createdAt.toISOString(),
    };
  });
}

/**
 * The materials of a collaboration's campaign as stored (unsigned URLs): what its creator may post for it
 * beside their own media (publishing, issue 18).
 */
export async function collaborationMaterials(
  ctx: Pick<AppContext, 'db'>,
  collaborationId: string,
): Promise<Array<{ id: string; type: 'image' | 'video'; url: string }>> {
  return ctx.db
    .select({ id: campaignMaterials.id, type: campaignMaterials.type, url: campaignMaterials.url })
    .from(collaborations)
    .innerJoin(campaignMaterials, eq(campaignMaterials.campaignId, collaborations.campaignId))
    .where(eq(collaborations.id, collaborationId));
}

export interface CompletedCollaboration {
  collaboration: CampaignCollaboration;
  paid: boolean;
  campaignHeld: number;
  campaignHeldCents: number;
}

/**
 * POST /api/collaborations/{id}/complete (owner brand). In one transaction: the campaign's held
 * budget goes down by the agreed amount, the collaboration is completed, and the creator's earnings
 * get a `collaboration_payout` credit referencing the collaboration. The brand's wallet is not
 * touched: the money left it when the budget was held (`campaign_hold`). A replay pays nothing.
 */
export async function completeCollaboration(
  ctx: AppContext,
  user: UserRow,
  collaborationId: string,
): Promise<CompletedCollaboration> {
  const result = await ctx.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ campaignId: collaborations.campaignId })
      .from(collaborations)
      .where(eq(collaborations.id, collaborationId));
    if (!found) throw notFound();
    const campaign = await lockBrandCampaign(tx, user, found.campaignId);
    const [collab] = await tx.select().from(collaborations).where(eq(collaborations.id, collaborationId)).for('update');
    if (!collab) throw notFound();
    if (collab.status === 'completed') return { collab, paid: false, heldCents: campaign.heldCents };
    if (collab.status !== 'active') throw conflict(M.collaborationNotActive);
    // Accepting never promises more than is held, so the hold covers the payout.
    if (campaign.heldCents < collab.agreedCents) throw conflict(M.budgetNotCovered(formatAmount(campaign.heldCents)));
    const now = ctx.clock.now();
    const heldCents = campaign.heldCents - collab.agreedCents;
    await tx.update(campaigns).set({ heldCents, updatedAt: now }).where(eq(campaigns.id, campaign.id));
    const [done] = await tx
      .update(collaborations)
      .set({ status: 'completed', completedAt: now, updatedAt: now })
      .where(eq(collaborations.id, collab.id))
      .returning();
    await creditMoney(tx, {
      userId: collab.creatorUserId,
      account: 'earnings',
      amountCents: collab.agreedCents,
      source: 'collaboration_payout',
      referenceId: collab.id,
      description: `Collaboration on "${campaign.title}" completed`,
    });
    await recordNotification(tx, now, {
      userId: collab.creatorUserId,
      kind: 'collaboration.completed',
      subject: `“${campaign.title}” is complete: ${formatEuros(collab.agreedCents)} added to your earnings`,
      lines: [
        `The brand marked your collaboration complete. ${formatEuros(collab.agreedCents)} is in your earnings.`,
        'You can pay it out to your bank account from Billing.',
      ],
      path: '/dashboard?account=billing',
    });
    return { collab: done as CollaborationRow, paid: true, heldCents };
  });
  if (result.paid) await deliverNotifications(ctx, result.collab.creatorUserId);
  const [dto] = await collaborationDtos(ctx, [result.collab], () => true);
  return {
    collaboration: dto,
    paid: result.paid,
    campaignHeld: centsToEuros(result.heldCents),
    campaignHeldCents: result.heldCents,
  };
}
