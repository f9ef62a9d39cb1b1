import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type {
  Application,
  Campaign,
  CampaignCollaboration,
  CampaignMaterial,
  CampaignPlan,
  Deliverable,
} from '../../../common/api/campaigns.ts';
import { centsToEuros } from '../../../common/api/money.ts';
import { audienceGeneration, durationLabel } from '../../../common/rules/campaigns.ts';
import type { AppContext } from '../../context.ts';
import {
  brandProfiles,
  campaignApplications,
  campaignMaterials,
  campaigns,
  collaborations,
  creatorProfiles,
  users,
} from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { shownLogo } from '../account/logo.ts';
import { thumbnailsOf } from '../media/thumbnails.ts';
import { collaborationProgress, progressOrNone } from './progress.ts';
import { viewableUrl } from './viewable.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type ApplicationRow = typeof campaignApplications.$inferSelect;
export type CollaborationRow = typeof collaborations.$inferSelect;
type Deps = Pick<AppContext, 'db' | 'config' | 'clock'>;

/** Who is looking: the role, and whether a creator is approved. */
export interface Viewer {
  id: string;
  role: UserRow['role'];
  approvedCreator: boolean;
}

/**
 * A brand looking at another brand's (open or running) campaign: it sees the pool's public card only —
 * no budget, no materials, no collaborations, no plan (docs/campaigns.md, "What another brand sees").
 */
export function seesPublicCardOnly(viewer: Viewer, row: Pick<CampaignRow, 'brandUserId'>): boolean {
  return viewer.role === 'brand' && row.brandUserId !== viewer.id;
}

export function viewerOf(user: UserRow): Viewer {
  return {
    id: user.id,
    role: user.role,
    approvedCreator: user.role === 'creator' && user.userStatus === 'approved_creator',
  };
}

export interface Person {
  name: string;
  /** Brand: the company logo, else the avatar. Creator: the avatar. */
  image: string | null;
}

/** Display names and images of users: brands by company name, creators by display name. */
export async function peopleOf(deps: Deps, ids: readonly string[]): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Person>();
  if (unique.length === 0) return out;
  const rows = await deps.db
    .select({
      id: users.id,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      avatarUrl: users.avatarUrl,
      companyName: brandProfiles.companyName,
      logoUrl: brandProfiles.logoUrl,
      displayName: creatorProfiles.displayName,
    })
    .from(users)
    .leftJoin(brandProfiles, eq(brandProfiles.userId, users.id))
    .leftJoin(creatorProfiles, eq(creatorProfiles.userId, users.id))
    .where(inArray(users.id, unique));
  for (const r of rows) {
    const fullName = `${r.firstName} ${r.lastName}`.trim();
    const name = (r.role === 'brand' ? r.companyName : r.displayName)?.trim() || fullName;
    const image = r.role === 'brand' ? (shownLogo(r.logoUrl) ?? r.avatarUrl) : r.avatarUrl;
    out.set(r.id, { name, image: viewableUrl(deps, image) });
  }
  return out;
}

const unknownPerson: Person = { name: 'Unknown', image: null };

interface StoredAudience {
  ageMin?: number;
  ageMax?: number;
  description?: string;
}

function audienceOf(value: Record<string, unknown>): Campaign['target_audience'] {
  const a = value as StoredAudience;
  if (typeof a.ageMin !== 'number' || typeof a.ageMax !== 'number') return null;
  return {
    ageMin: a.ageMin,
    ageMax: a.ageMax,
    description: a.description ?? '',
    generation: audienceGeneration(a.ageMin, a.ageMax),
  };
}

type MaterialRow = typeof campaignMaterials.$inferSelect;

/** The WebP thumbnails of materials that are stored assets' files, by the file's key. */
async function materialThumbnails(deps: Deps, rows: readonly MaterialRow[]): Promise<Map<string, string>> {
  const keys = rows.map((m) => storedKeyOf(deps.config, m.url)).filter((k): k is string => k !== null);
  return thumbnailsOf(deps, keys);
}

function materialDto(deps: Deps, row: MaterialRow, thumbnails: Map<string, string>): CampaignMaterial {
  const key = storedKeyOf(deps.config, row.url);
  const thumbnail = key ? thumbnails.get(key) : undefined;
  return {
    id: row.id,
    type: row.type,
    url: viewableUrl(deps, row.url) ?? row.url,
    thumbnail_url: thumbnail ? viewableUrl(deps, mediaUrl(thumbnail, 'image/webp')) : null,
    prompt: row.prompt,
  };
}

/**
 * The campaign's collaborations with creator names, progress and performance. The agreed amount is
 * shown only where `seesAmount` allows (the campaign's brand, admins, the collaborating creator).
 */
export async function collaborationDtos(
  deps: Deps,
  rows: readonly CollaborationRow[],
  seesAmount: (row: CollaborationRow) => boolean,
  people?: Map<string, Person>,
): Promise<CampaignCollaboration[]> {
  const names =
    people ??
    (await peopleOf(
      deps,
      rows.map((r) => r.creatorUserId),
    ));
  const progress = await collaborationProgress(
    deps,
    rows.map((r) => ({ id: r.id, deliverables: r.deliverables as Deliverable[] })),
  );
  return rows.map((r) => {
    const person = names.get(r.creatorUserId) ?? unknownPerson;
    const amountShown = seesAmount(r);
    const counted = progressOrNone(progress.get(r.id));
    return {
      id: r.id,
      creator_id: r.creatorUserId,
      creator_name: person.name,
      creator_avatar: person.image,
      status: r.status,
      agreed_amount: amountShown ? centsToEuros(r.agreedCents) : null,
      agreedCents: amountShown ? r.agreedCents : null,
      ...counted,
      // The posts themselves, like the amount, are for the campaign's brand, admins and the creator.
      posts: amountShown ? counted.posts : [],
      created_at: r.createdAt.toISOString(),
      completed_at: r.completedAt ? r.completedAt.toISOString() : null,
    };
  });
}

/** Campaign rows as the spec's Campaign, in the order given, loading their relations in batches. */
export async function campaignDtos(deps: Deps, viewer: Viewer, rows: readonly CampaignRow[]): Promise<Campaign[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [materials, collabs, mine, pending] = await Promise.all([
    deps.db
      .select()
      .from(campaignMaterials)
      .where(inArray(campaignMaterials.campaignId, ids))
      .orderBy(campaignMaterials.createdAt, campaignMaterials.id),
    deps.db
      .select()
      .from(collaborations)
      .where(and(inArray(collaborations.campaignId, ids), ne(collaborations.status, 'cancelled')))
      .orderBy(collaborations.createdAt, collaborations.id),
    deps.db
      .select()
      .from(campaignApplications)
      .where(and(inArray(campaignApplications.campaignId, ids), eq(campaignApplications.creatorUserId, viewer.id))),
    deps.db
      .select({ campaignId: campaignApplications.campaignId, n: sql<number>`count(*)::int` })
      .from(campaignApplications)
      .where(and(inArray(campaignApplications.campaignId, ids), eq(campaignApplications.status, 'pending')))
      .groupBy(campaignApplications.campaignId),
  ]);
  const people = await peopleOf(deps, [...rows.map((r) => r.brandUserId), ...collabs.map((c) => c.creatorUserId)]);
  const brandOf = new Map(rows.map((r) => [r.id, r.brandUserId]));
  const collabDtos = await collaborationDtos(
    deps,
    collabs,
    (c) => viewer.role === 'admin' || brandOf.get(c.campaignId) === viewer.id || c.creatorUserId === viewer.id,
    people,
  );
  const pendingOf = new Map(pending.map((p) => [p.campaignId, Number(p.n)]));
  const thumbnails = await materialThumbnails(deps, materials);
  return rows.map((r) => {
    const privileged = r.brandUserId === viewer.id || viewer.role === 'admin';
    const card = seesPublicCardOnly(viewer, r);
    const brand = people.get(r.brandUserId) ?? unknownPerson;
    const application = mine.find((a) => a.campaignId === r.id);
    return {
      id: r.id,
      title: r.title,
      description: r.description,
      objective: r.objective,
      thumbnail: viewableUrl(deps, r.thumbnailUrl),
      status: r.status,
      brand_id: r.brandUserId,
      brandName: brand.name,
      brandLogo: brand.image,
      budget: card ? null : centsToEuros(r.budgetCents),
      budgetCents: card ? null : r.budgetCents,
      held: privileged ? centsToEuros(r.heldCents) : null,
      heldCents: privileged ? r.heldCents : null,
      budget_type: r.budgetType,
      category: r.category,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      platforms: r.platforms,
      content_types: r.contentTypes,
      kpis: r.kpis,
      deliverables: r.deliverables as Deliverable[],
      target_audience: audienceOf(r.targetAudience),
      duration_days: r.durationDays,
      duration_label: r.durationDays ? durationLabel(r.durationDays) : null,
      start_date: r.startDate,
      end_date: r.endDate,
      plan: privileged && r.plan ? (r.plan as unknown as CampaignPlan) : null,
      materials: card
        ? []
        : materials.filter((m) => m.campaignId === r.id).map((m) => materialDto(deps, m, thumbnails)),
      collaborations: card ? [] : collabDtos.filter((_, i) => collabs[i].campaignId === r.id),
      is_owner: r.brandUserId === viewer.id,
      my_application: application
        ? {
            id: application.id,
            status: application.status,
            rate: centsToEuros(application.rateCents),
            rateCents: application.rateCents,
          }
        : null,
      pending_applications: privileged ? (pendingOf.get(r.id) ?? 0) : null,
    };
  });
}

/** The campaign's materials (GET /api/campaigns/{id}/assets). */
export async function materialDtos(deps: Deps, campaignId: string): Promise<CampaignMaterial[]> {
  const rows = await deps.db
    .select()
    .from(campaignMaterials)
    .where(eq(campaignMaterials.campaignId, campaignId))
    .orderBy(campaignMaterials.createdAt, campaignMaterials.id);
  const thumbnails = await materialThumbnails(deps, rows);
  return rows.map((m) => materialDto(deps, m, thumbnails));
}

/** Applications with their campaign and creator. */
export async function applicationDtos(deps: Deps, rows: readonly ApplicationRow[]): Promise<Application[]> {
  if (rows.length === 0) return [];
  const campaignRows = await deps.db
    .select({ id: campaigns.id, title: campaigns.title, status: campaigns.status, brandUserId: campaigns.brandUserId })
    .from(campaigns)
    .where(
      inArray(
        campaigns.id,
        rows.map((r) => r.campaignId),
      ),
    );
  const collabs = await deps.db
    .select({ id: collaborations.id, applicationId: collaborations.applicationId })
    .from(collaborations)
    .where(
      inArray(
        collaborations.applicationId,
        rows.map((r) => r.id),
      ),
    );
  const people = await peopleOf(deps, [...rows.map((r) => r.creatorUserId), ...campaignRows.map((c) => c.brandUserId)]);
  return rows.map((r) => {
    const c = campaignRows.find((x) => x.id === r.campaignId);
    const creator = people.get(r.creatorUserId) ?? unknownPerson;
    return {
      id: r.id,
      campaign_id: r.campaignId,
      campaign_title: c?.title ?? '',
      campaign_status: c?.status ?? 'completed',
      brand_name: (c && people.get(c.brandUserId)?.name) ?? '',
      creator_id: r.creatorUserId,
      creator_name: creator.name,
      creator_avatar: creator.image,
      message: r.message,
      rate: centsToEuros(r.rateCents),
      rateCents: r.rateCents,
      status: r.status,
      created_at: r.createdAt.toISOString(),
      decided_at: r.decidedAt ? r.decidedAt.toISOString() : null,
      collaboration_id: collabs.find((x) => x.applicationId === r.id)?.id ?? null,
    };
  });
}
