import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { SOCIAL_LINK_PLATFORMS, type SocialLinkPlatform } from '../../../common/api/account.constants.ts';
import type {
  BrandProfile,
  CreatorProfile,
  updateBrandProfileBody,
  updateCreatorProfileBody,
  updateUserProfileBody,
} from '../../../common/api/account.ts';
import type { User } from '../../../common/api/auth.ts';
import { centsToEuros, eurosToCents } from '../../../common/api/money.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { brandProfiles, creatorProfiles, users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { forbidden } from '../../platform/errors.ts';
import { loadUserDto } from '../auth/users.ts';
import { readOwnLogo, replaceLogo, setBrandLogo, shownLogo } from './logo.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;
type CreatorRow = typeof creatorProfiles.$inferSelect;
type BrandRow = typeof brandProfiles.$inferSelect;

/** Drops keys whose value is undefined (absent from the body): PATCH changes only what was sent. */
function defined<T extends Record<string, unknown>>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toCreatorProfile(row: CreatorRow): CreatorProfile {
  const socialLinks: CreatorProfile['socialLinks'] = {};
  for (const platform of SOCIAL_LINK_PLATFORMS) {
    const link = row.socialLinks[platform];
    if (link) socialLinks[platform] = link;
  }
  const primary = row.primaryPlatform as SocialLinkPlatform | null;
  return {
    displayName: row.displayName,
    bio: row.bio,
    location: row.location,
    website: row.website,
    primaryPlatform: primary && SOCIAL_LINK_PLATFORMS.includes(primary) ? primary : null,
    skills: row.skills,
    niches: row.niches,
    isVerified: row.isVerified,
    socialLinks,
    startingRate: row.startingRateCents === null ? null : centsToEuros(row.startingRateCents),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The creator's profile row, created on first use from the account (display name from the first and
 * last name; bio, location and website copied).
 */
async function ensureCreatorRow(deps: Deps, user: UserRow): Promise<CreatorRow> {
  const [existing] = await deps.db.select().from(creatorProfiles).where(eq(creatorProfiles.userId, user.id)).limit(1);
  if (existing) return existing;
  const now = deps.clock.now();
  await deps.db
    .insert(creatorProfiles)
    .values({
      userId: user.id,
      displayName: `${user.firstName} ${user.lastName}`.trim(),
      bio: user.bio,
      location: user.location,
      website: user.website,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await deps.db.select().from(creatorProfiles).where(eq(creatorProfiles.userId, user.id)).limit(1);
  return row;
}

export async function getCreatorProfile(deps: Deps, user: UserRow): Promise<CreatorProfile> {
  return toCreatorProfile(await ensureCreatorRow(deps, user));
}

export async function updateCreatorProfile(
  deps: Deps,
  user: UserRow,
  body: z.output<typeof updateCreatorProfileBody>,
): Promise<CreatorProfile> {
  await ensureCreatorRow(deps, user);
  const { startingRate, socialLinks, ...rest } = body;
  const links = socialLinks
    ? Object.fromEntries(Object.entries(socialLinks).filter(([, v]) => typeof v === 'string' && v !== ''))
    : undefined;
  const [row] = await deps.db
    .update(creatorProfiles)
    .set({
      ...defined(rest),
      ...(links === undefined ? {} : { socialLinks: links as Record<string, string> }),
      ...(startingRate === undefined
        ? {}
        : { startingRateCents: startingRate === null ? null : eurosToCents(startingRate) }),
      updatedAt: deps.clock.now(),
    })
    .where(eq(creatorProfiles.userId, user.id))
    .returning();
  return toCreatorProfile(row);
}

function toBrandProfile(row: BrandRow): BrandProfile {
  return {
    companyName: row.companyName,
    industry: row.industry,
    companyWebsite: row.companyWebsite,
    companyDescription: row.companyDescription,
    targetAudience: row.targetAudience,
    marketingObjectives: row.marketingObjectives,
    budgetRange: row.budgetRange,
    companySize: row.companySize,
    headquartersLocation: row.headquartersLocation,
    logoUrl: shownLogo(row.logoUrl),
    verificationStatus: row.verificationStatus,
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function ensureBrandRow(deps: Deps, user: UserRow): Promise<BrandRow> {
  const [existing] = await deps.db.select().from(brandProfiles).where(eq(brandProfiles.userId, user.id)).limit(1);
  if (existing) return existing;
  const now = deps.clock.now();
  await deps.db
    .insert(brandProfiles)
    .values({ userId: user.id, companyWebsite: user.website, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [row] = await deps.db.select().from(brandProfiles).where(eq(brandProfiles.userId, user.id)).limit(1);
  return row;
}

/**
 * A brand an admin rejected may not create or publish campaigns nor browse the creator directory:
 * 403 `approval_required`. Pending brands (and every other role) pass.
 */
export async function assertBrandNotRejected(
  deps: Pick<AppContext, 'db'>,
  user: Pick<UserRow, 'id' | 'role'>,
): Promise<void> {
  if (user.role !== 'brand') return;
  const [row] = await deps.db
    .select({ status: brandProfiles.verificationStatus })
    .from(brandProfiles)
    .where(eq(brandProfiles.userId, user.id))
    .limit(1);
  if (row?.status === 'rejected') throw forbidden(MESSAGES.approval.brandRejected, 'approval_required');
}

export async function getBrandProfile(deps: Deps, user: UserRow): Promise<BrandProfile> {
  return toBrandProfile(await ensureBrandRow(deps, user));
}

export async function updateBrandProfile(
  deps: Pick<AppContext, 'db' | 'clock' | 'storage' | 'config' | 'log'>,
  user: UserRow,
  body: z.output<typeof updateBrandProfileBody>,
): Promise<BrandProfile> {
  const current = await ensureBrandRow(deps, user);
  const { logoUrl, ...rest } = body;
  // The logo: '' or null removes it; otherwise only one of the brand's own images (setBrandLogo, issue 27);
  // the current logo sent back unchanged is kept as it is.
  if (logoUrl === null || logoUrl === '') await replaceLogo(deps, user.id, null);
  else if (logoUrl !== undefined && logoUrl !== current.logoUrl)
    await setBrandLogo(deps, user, await readOwnLogo(deps, user.id, logoUrl));
  const [row] = await deps.db
    .update(brandProfiles)
    .set({ ...defined(rest), updatedAt: deps.clock.now() })
    .where(eq(brandProfiles.userId, user.id))
    .returning();
  return toBrandProfile(row);
}

/** PUT /api/users/profile: the generic form (names, contact, bio, time zone) of any role. */
export async function updateUserProfile(
  deps: Deps,
  userId: string,
  body: z.output<typeof updateUserProfileBody>,
): Promise<User> {
  const patch = defined({
    firstName: body.first_name,
    lastName: body.last_name,
    phone: body.phone,
    bio: body.bio,
    location: body.location,
    website: body.website,
    timezone: body.timezone,
  });
  const now = deps.clock.now();
  if (Object.keys(patch).length > 0) {
    await deps.db
      .update(users)
      .set({ ...patch, updatedAt: now })
      .where(eq(users.id, userId));
  }
  return loadUserDto(deps.db, userId, now);
}
