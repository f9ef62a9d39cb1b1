// Users and one resource of each kind, owned by creator A or brand A, for the authorisation suite.
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { PERSONA_IMAGE_TYPES } from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';
import {
  assets,
  bankAccounts,
  campaignApplications,
  campaigns,
  characters,
  collaborations,
  editorSessions,
  payouts,
  personas,
  sessions,
  socialAccounts,
  socialPosts,
  tasks,
  uploadedMedia,
  users,
} from '../../db/schema/index.ts';
import type { PersonaImages } from '../../db/schema/personas.ts';
import { createTestUser, solidPng, storeUpload, type TestUser } from '../fixtures.ts';
import type { Fixture, Role } from './authz-catalogue.ts';

export interface Cast {
  creatorA: TestUser;
  creatorB: TestUser;
  brandA: TestUser;
  brandB: TestUser;
  admin: TestUser;
  pendingCreator: TestUser;
}

/** The other user of a role, who tries A's resources. */
export const otherOf = (cast: Cast, role: Role): TestUser =>
  role === 'brand' ? cast.brandB : role === 'admin' ? cast.admin : cast.creatorB;

/** User A of a role, who owns the fixture's resources. */
export const ownerOf = (cast: Cast, role: Role): TestUser => (role === 'brand' ? cast.brandA : cast.creatorA);

export async function createCast(ctx: AppContext): Promise<Cast> {
  const [creatorA, creatorB, brandA, brandB, admin, pendingCreator] = await Promise.all([
    createTestUser(ctx.db, { credits: 1000 }),
    createTestUser(ctx.db, { credits: 1000 }),
    createTestUser(ctx.db, { role: 'brand' }),
    createTestUser(ctx.db, { role: 'brand' }),
    createTestUser(ctx.db, { role: 'admin' }),
    createTestUser(ctx.db),
  ]);
  await ctx.db.update(users).set({ userStatus: 'pending' }).where(eq(users.id, pendingCreator.id));
  return { creatorA, creatorB, brandA, brandB, admin, pendingCreator };
}

const placeholderImages = (): PersonaImages =>
  Object.fromEntries(
    PERSONA_IMAGE_TYPES.map((t) => [
      t,
      { status: 'placeholder', key: null, url: null, thumbnailKey: null, assetId: null, taskId: null, error: null },
    ]),
  ) as PersonaImages;

export async function createFixture(ctx: AppContext, cast: Cast): Promise<Fixture> {
  const { db } = ctx;
  const a = cast.creatorA.id;
  const png = await solidPng(8, 8, '#3366cc');
  const [image, callerImage] = await Promise.all([
    storeUpload(ctx, a, png, 'image/png', 'png'),
    storeUpload(ctx, cast.creatorB.id, png, 'image/png', 'png'),
  ]);
  const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, a));
  const [upload] = await db
    .insert(uploadedMedia)
    .values({ userId: a, filename: 'a.png', key: image.key, type: 'image', mimeType: 'image/png', size: png.length })
    .returning();
  const [task] = await db
    .insert(tasks)
    .values({ userId: a, kind: 'image', status: 'completed', progress: 100, result: {} })
    .returning();
  const [asset] = await db
    .insert(assets)
    .values({ userId: a, type: 'image', key: image.key, url: image.url, prompt: 'mine' })
    .returning();
  const [editorSession] = await db
    .insert(editorSessions)
    .values({ userId: a, name: 'Mine', componentType: 'canvas', data: {}, sizeBytes: 2 })
    .returning();
  const [character] = await db.insert(characters).values({ userId: a, name: 'Mine' }).returning();
  const [persona] = await db
    .insert(personas)
    .values({
      userId: a,
      name: 'Mine',
      description: 'Private persona',
      personality: 'friendly',
      language: 'en',
      images: placeholderImages(),
      status: 'ready',
      generationProgress: 100,
    })
    .returning();
  const [campaign] = await db
    .insert(campaigns)
    .values({ brandUserId: cast.brandA.id, title: 'Draft', objective: 'Awareness', budgetCents: 10_000 })
    .returning();
  const open = { brandUserId: cast.brandA.id, objective: 'Awareness', budgetCents: 10_000, heldCents: 10_000 } as const;
  // Two open campaigns: accepting the application makes a collaboration, one per creator and campaign.
  const [applied, openCampaign] = await db
    .insert(campaigns)
    .values([
      { ...open, title: 'Applied', status: 'open' },
      { ...open, title: 'Running', status: 'running' },
    ])
    .returning();
  const [application] = await db
    .insert(campaignApplications)
    .values({ campaignId: applied.id, creatorUserId: a, message: 'Pick me', rateCents: 1_000 })
    .returning();
  const [collaboration] = await db
    .insert(collaborations)
    .values({ campaignId: openCampaign.id, creatorUserId: a, agreedCents: 1_000 })
    .returning();
  // Creator B has a connected account, so its publishing requests get as far as their references.
  await db.insert(socialAccounts).values({
    userId: cast.creatorB.id,
    platform: 'instagram',
    mode: 'sandbox',
    username: 'creator-b',
    accessTokenSealed: 'v1.x.y.z',
  });
  const [creatorBankAccount, brandBankAccount] = await db
    .insert(bankAccounts)
    .values([
      { userId: a, accountHolderName: 'A', iban: 'DE89370400440532013000', isPrimary: false },
      { userId: cast.brandA.id, accountHolderName: 'A', iban: 'DE89370400440532013000', isPrimary: false },
    ])
    .returning();
  const [payout] = await db
    .insert(payouts)
    .values({
      userId: a,
      amountCents: 1_000,
      method: 'manual',
      accountHolderName: 'A',
      iban: 'DE89370400440532013000',
      bankAccountId: creatorBankAccount.id,
    })
    .returning();
  const [socialPost] = await db
    .insert(socialPosts)
    .values({ userId: a, platform: 'instagram', message: 'Soon', scheduledTime: new Date(Date.now() + 86_400_000) })
    .returning();
  return {
    session: session.id,
    mediaKey: image.key,
    mediaUrl: image.url,
    callerImageUrl: callerImage.url,
    upload: upload.id,
    task: task.id,
    asset: asset.id,
    editorSession: editorSession.id,
    character: character.id,
    persona: persona.id,
    campaign: campaign.id,
    openCampaign: openCampaign.id,
    application: application.id,
    collaboration: collaboration.id,
    creatorBankAccount: creatorBankAccount.id,
    brandBankAccount: brandBankAccount.id,
    socialPost: socialPost.id,
    payout: payout.id,
    creatorUserId: a,
    brandUserId: cast.brandA.id,
  };
}

/** What the other users' attempts must not have changed: each resource with its state, read from the database. */
export async function snapshot(ctx: AppContext, fx: Fixture): Promise<Record<string, unknown>> {
  const { db } = ctx;
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0] ?? null;
  const total = async (table: PgTable) => (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return {
    rows: {
      assets: await total(assets),
      characters: await total(characters),
      personas: await total(personas),
      campaigns: await total(campaigns),
      tasks: await total(tasks),
      editorSessions: await total(editorSessions),
      uploads: await total(uploadedMedia),
      socialPosts: await total(socialPosts),
    },
    session: await one(db.select({ r: sessions.revokedAt }).from(sessions).where(eq(sessions.id, fx.session))),
    upload: await one(
      db.select({ s: uploadedMedia.status }).from(uploadedMedia).where(eq(uploadedMedia.id, fx.upload)),
    ),
    task: await one(db.select({ s: tasks.status }).from(tasks).where(eq(tasks.id, fx.task))),
    asset: await one(db.select({ u: assets.updatedAt }).from(assets).where(eq(assets.id, fx.asset))),
    editorSession: await one(
      db.select({ n: editorSessions.name }).from(editorSessions).where(eq(editorSessions.id, fx.editorSession)),
    ),
    character: await one(db.select({ n: characters.name }).from(characters).where(eq(characters.id, fx.character))),
    persona: await one(
      db.select({ u: personas.updatedAt, i: personas.images }).from(personas).where(eq(personas.id, fx.persona)),
    ),
    campaign: await one(
      db.select({ t: campaigns.title, s: campaigns.status }).from(campaigns).where(eq(campaigns.id, fx.campaign)),
    ),
    application: await one(
      db
        .select({ s: campaignApplications.status })
        .from(campaignApplications)
        .where(eq(campaignApplications.id, fx.application)),
    ),
    collaboration: await one(
      db.select({ s: collaborations.status }).from(collaborations).where(eq(collaborations.id, fx.collaboration)),
    ),
    bankAccounts: await db
      .select({ id: bankAccounts.id, p: bankAccounts.isPrimary })
      .from(bankAccounts)
      .orderBy(bankAccounts.id),
    payout: await one(db.select({ s: payouts.status }).from(payouts).where(eq(payouts.id, fx.payout))),
    socialPost: await one(
      db
        .select({ m: socialPosts.message, s: socialPosts.status })
        .from(socialPosts)
        .where(eq(socialPosts.id, fx.socialPost)),
    ),
  };
}
