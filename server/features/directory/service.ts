// Creator and brand directories and public profiles (issue 8; accounts spec 2.1, 3, 6, 9).
import { and, eq, ne, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  BrandPublicProfile,
  CreatorPublicProfile,
  listBrandsQuery,
  listCreatorsQuery,
} from '../../../common/api/directory.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { assertBrandNotRejected } from '../account/profiles.ts';
import {
  brandOrder,
  brandSearch,
  countBrands,
  countCreators,
  creatorCategory,
  creatorOrder,
  creatorSearch,
  otherLinks,
  page,
  selectBrands,
  selectCreators,
  toBrandCard,
  toCreatorCard,
  verificationStatus,
  visibility,
} from './cards.ts';

type Deps = Pick<AppContext, 'db'>;

/**
 * Spec 6: the directories are for approved creators, brands and admins. Pending creators and
 * regular users get 403 with code approval_required (the web app shows its approval gate).
 */
function assertDirectoryAccess(viewer: UserRow): void {
  if (viewer.role === 'creator' && viewer.userStatus !== 'approved_creator') {
    throw forbidden(MESSAGES.directory.approvalRequired, 'approval_required');
  }
}

/**
 * Who others see: a profile whose visibility is anything but public (private, friends, connections;
 * the studio has no friend graph) is shown only to its owner and admins.
 */
function visibleTo(viewer: UserRow): SQL | undefined {
  if (viewer.role === 'admin') return undefined;
  return or(eq(visibility, 'public'), eq(users.id, viewer.id));
}

/** GET /api/creators: approved creators with public profiles (the viewer's own profile too); not for rejected brands. */
export async function listCreators(deps: Deps, viewer: UserRow, query: z.output<typeof listCreatorsQuery>) {
  assertDirectoryAccess(viewer);
  await assertBrandNotRejected(deps, viewer);
  const isAdmin = viewer.role === 'admin';
  const where = and(
    eq(users.userStatus, 'approved_creator'),
    visibleTo(viewer),
    query.search ? creatorSearch(query.search, isAdmin) : undefined,
    creatorCategory(query.category),
  );
  const [rows, total] = await Promise.all([
    selectCreators(deps.db, where)
      .orderBy(...creatorOrder(query.sort))
      .limit(query.limit)
      .offset(query.offset),
    countCreators(deps.db, where),
  ]);
  return {
    data: rows.map((row) => toCreatorCard(row, isAdmin || row.id === viewer.id)),
    pagination: page(total, query.offset, query.limit),
  };
}

/** GET /api/brands: brands not rejected by an admin, with public profiles (the viewer's own too). */
export async function listBrands(deps: Deps, viewer: UserRow, query: z.output<typeof listBrandsQuery>) {
  assertDirectoryAccess(viewer);
  const isAdmin = viewer.role === 'admin';
  const where = and(
    isAdmin ? undefined : or(ne(verificationStatus, 'rejected'), eq(users.id, viewer.id)),
    visibleTo(viewer),
    query.search ? brandSearch(query.search, isAdmin) : undefined,
  );
  const [rows, total] = await Promise.all([
    selectBrands(deps.db, where)
      .orderBy(...brandOrder(query.sort))
      .limit(query.limit)
      .offset(query.offset),
    countBrands(deps.db, where),
  ]);
  return {
    data: rows.map((row) => toBrandCard(row, isAdmin || row.id === viewer.id)),
    pagination: page(total, query.offset, query.limit),
  };
}

/**
 * GET /api/creators/{id}, any signed-in user. Others see only approved creators with a public
 * profile; the creator itself and admins always see it. Anything hidden answers 404.
 */
export async function getCreatorPublicProfile(deps: Deps, viewer: UserRow, id: string): Promise<CreatorPublicProfile> {
  const [row] = await selectCreators(deps.db, eq(users.id, id)).limit(1);
  const own = row?.id === viewer.id;
  const privileged = own || viewer.role === 'admin';
  if (!row || (!privileged && (row.userStatus !== 'approved_creator' || row.visibility !== 'public'))) {
    throw notFound(MESSAGES.directory.profileNotFound);
  }
  return {
    ...toCreatorCard(row, privileged),
    first_name: row.firstName,
    last_name: row.lastName,
    website: row.profileWebsite ?? row.website,
    primary_platform: row.primaryPlatform,
    other_links: otherLinks(row),
    is_own: own,
  };
}

/** GET /api/brands/{id}: as creators; others do not see rejected brands or non-public profiles. */
export async function getBrandPublicProfile(deps: Deps, viewer: UserRow, id: string): Promise<BrandPublicProfile> {
  const [row] = await selectBrands(deps.db, eq(users.id, id)).limit(1);
  const own = row?.id === viewer.id;
  const privileged = own || viewer.role === 'admin';
  if (!row || (!privileged && (row.verificationStatus === 'rejected' || row.visibility !== 'public'))) {
    throw notFound(MESSAGES.directory.profileNotFound);
  }
  return {
    ...toBrandCard(row, privileged),
    company_website: row.companyWebsite,
    company_size: row.companySize,
    target_audience: row.targetAudience,
    marketing_objectives: row.marketingObjectives,
    created_at: new Date(row.createdAt).toISOString(),
    is_own: own,
  };
}
