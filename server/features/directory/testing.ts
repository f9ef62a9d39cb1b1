// Helpers of the directory and admin integration tests: users of each role and status with profiles.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { brandProfiles, creatorProfiles, userSettings, users } from '../../db/schema/index.ts';
import { createTestUser, type TestUser } from '../../test/fixtures.ts';

type CreatorProfileValues = Partial<Omit<typeof creatorProfiles.$inferInsert, 'userId'>>;
type BrandProfileValues = Partial<Omit<typeof brandProfiles.$inferInsert, 'userId'>>;

export async function makeCreator(
  db: Db,
  options: {
    status?: 'pending' | 'approved_creator' | 'regular_user';
    profile?: CreatorProfileValues;
    user?: Partial<typeof users.$inferInsert>;
    visibility?: 'public' | 'private' | 'friends';
  } = {},
): Promise<TestUser> {
  const user = await createTestUser(db, { role: 'creator' });
  await db
    .update(users)
    .set({ userStatus: options.status ?? 'approved_creator', ...options.user })
    .where(eq(users.id, user.id));
  if (options.profile) await db.insert(creatorProfiles).values({ userId: user.id, ...options.profile });
  if (options.visibility)
    await db.insert(userSettings).values({ userId: user.id, profileVisibility: options.visibility });
  return user;
}

export async function makeBrand(
  db: Db,
  options: {
    profile?: BrandProfileValues;
    user?: Partial<typeof users.$inferInsert>;
    visibility?: 'public' | 'private';
  } = {},
): Promise<TestUser> {
  const user = await createTestUser(db, { role: 'brand' });
  if (options.user) await db.update(users).set(options.user).where(eq(users.id, user.id));
  if (options.profile) await db.insert(brandProfiles).values({ userId: user.id, ...options.profile });
  if (options.visibility)
    await db.insert(userSettings).values({ userId: user.id, profileVisibility: options.visibility });
  return user;
}
