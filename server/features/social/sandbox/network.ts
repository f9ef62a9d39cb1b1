import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { SocialPlatform } from '../../../../common/api/social.ts';
import { fitPostText } from '../../../../common/rules/post-text.ts';
import { checkPostMedia, NETWORK_NAMES, type PostMediaFacts } from '../../../../common/rules/social-media.ts';
import type { AppContext } from '../../../context.ts';
import {
  sandboxFollows,
  sandboxGrants,
  sandboxPostLikes,
  sandboxPosts,
  sandboxPostViews,
  users,
} from '../../../db/schema/index.ts';
import { generateToken, sha256 } from '../../../platform/auth/crypto.ts';
import { ConnectorError, type PostMetrics, s256, type TokenSet } from '../connectors/types.ts';
import { factsOfAddress } from '../post-media-facts.ts';

// The embedded sandbox networks: what a platform does on its side of OAuth and publishing, kept in our
// database. Codes and tokens are stored hashed; posts are public pages that count unique views (one per visitor
// and UTC day), and let visitors like the post and follow its author. A visitor is a keyed hash of the client
// address and user agent (sandbox/routes.ts); known bots see the page but are never counted.

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

const CODE_TTL_MS = 10 * 60_000;
/** Short, so that refresh before expiry is exercised for real. */
const SANDBOX_ACCESS_TTL_MS = 60 * 60_000;

export const SANDBOX_NAMES = NETWORK_NAMES;

export function sandboxPostUrl(ctx: Pick<AppContext, 'config'>, platform: SocialPlatform, id: string): string {
  return `${ctx.config.publicUrl}/social/sandbox/${platform}/posts/${id}`;
}

/** The handle the sandbox gives a studio user: their name, lower-case, dotted. */
async function handleOf(ctx: Ctx, userId: string): Promise<string> {
  const [user] = await ctx.db
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const base = [user?.first, user?.last]
    .filter(Boolean)
    .join('.')
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, '');
  return base || (user?.email.split('@')[0] ?? 'creator');
}

/** The consent page's Approve: a single-use code bound to the PKCE challenge. */
export async function approveConsent(
  ctx: Ctx,
  input: { platform: SocialPlatform; userId: string; codeChallenge: string },
): Promise<string> {
  const code = generateToken();
  await ctx.db.insert(sandboxGrants).values({
    platform: input.platform,
    userId: input.userId,
    username: await handleOf(ctx, input.userId),
    codeHash: sha256(code),
    codeChallenge: input.codeChallenge,
    codeExpiresAt: new Date(ctx.clock.now().getTime() + CODE_TTL_MS),
    createdAt: ctx.clock.now(),
  });
  return code;
}

function issue(ctx: Ctx): { tokens: TokenSet; hashes: { access: string; refresh: string; expires: Date } } {
  const accessToken = generateToken();
  const refreshToken = generateToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + SANDBOX_ACCESS_TTL_MS);
  return {
    tokens: { accessToken, refreshToken, expiresAt },
    hashes: { access: sha256(accessToken), refresh: sha256(refreshToken), expires: expiresAt },
  };
}

/** Token endpoint, grant_type=authorization_code: the code once, with the verifier matching its challenge. */
export async function exchangeCode(
  ctx: Ctx,
  input: { platform: SocialPlatform; code: string; codeVerifier: string },
): Promise<{ tokens: TokenSet; grantId: string; username: string; followerCount: number }> {
  const now = ctx.clock.now();
  const { tokens, hashes } = issue(ctx);
  const [grant] = await ctx.db
    .update(sandboxGrants)
    .set({
      codeHash: null,
      codeExpiresAt: null,
      accessTokenHash: hashes.access,
      refreshTokenHash: hashes.refresh,
      accessExpiresAt: hashes.expires,
    })
    .where(
      and(
        eq(sandboxGrants.codeHash, sha256(input.code)),
        eq(sandboxGrants.platform, input.platform),
        eq(sandboxGrants.codeChallenge, s256(input.codeVerifier)),
        gt(sandboxGrants.codeExpiresAt, now),
      ),
    )
    .returning();
  if (!grant) throw new ConnectorError('bad-body', 'invalid_grant');
  const followerCount = await followersOf(ctx, input.platform, grant.userId);
  return { tokens, grantId: grant.id, username: grant.username, followerCount };
}

/** Token endpoint, grant_type=refresh_token: rotates both tokens. */
export async function refreshGrant(ctx: Ctx, platform: SocialPlatform, refreshToken: string): Promise<TokenSet> {
  const { tokens, hashes } = issue(ctx);
  const [grant] = await ctx.db
    .update(sandboxGrants)
    .set({ accessTokenHash: hashes.access, refreshTokenHash: hashes.refresh, accessExpiresAt: hashes.expires })
    .where(and(eq(sandboxGrants.refreshTokenHash, sha256(refreshToken)), eq(sandboxGrants.platform, platform)))
    .returning({ id: sandboxGrants.id });
  if (!grant) throw new ConnectorError('refresh-token', 'invalid_grant');
  return tokens;
}

/** Revokes every token of a grant (disconnect). */
export async function revokeGrant(ctx: Ctx, platform: SocialPlatform, accessToken: string): Promise<void> {
  await ctx.db
    .update(sandboxGrants)
    .set({ accessTokenHash: null, refreshTokenHash: null, accessExpiresAt: null })
    .where(and(eq(sandboxGrants.accessTokenHash, sha256(accessToken)), eq(sandboxGrants.platform, platform)));
}

/**
 * What the network the sandbox stands for would do with a post (common/rules/social-media.ts): a post it would
 * refuse (no media on Instagram, no video on TikTok or YouTube, media over its limits) is refused as a bad
 * request; a caption over its limit is cut there (at a word, with an ellipsis, as Cross-post optimization cuts).
 * The facts are the files' when the publisher sends them, else what their addresses say.
 */
function asTheNetworkTakesIt(
  platform: SocialPlatform,
  message: string,
  mediaUrls: readonly string[],
  media: readonly PostMediaFacts[] | undefined,
): string {
  const facts = media && media.length > 0 ? media : mediaUrls.map(factsOfAddress);
  const problems = checkPostMedia(platform, message, facts, { mediaUrls, shortenCaption: true });
  if (problems.length > 0) throw new ConnectorError('bad-body', problems.join('; '), undefined, 400);
  return fitPostText(platform, message, mediaUrls).message;
}

/** Publishing API: one post per idempotency key; an expired or unknown token is refused (401). */
export async function createSandboxPost(
  ctx: Ctx,
  input: {
    platform: SocialPlatform;
    accessToken: string;
    message: string;
    mediaUrls: string[];
    /** The files' facts (the publisher's PostMedia), when it sends them. */
    media?: readonly PostMediaFacts[];
    idempotencyKey: string;
  },
): Promise<{ id: string; views: number }> {
  const grant = await grantOf(ctx, input.platform, input.accessToken);
  const message = asTheNetworkTakesIt(input.platform, input.message, input.mediaUrls, input.media);
  await ctx.db
    .insert(sandboxPosts)
    .values({
      platform: input.platform,
      grantId: grant.id,
      username: grant.username,
      idempotencyKey: input.idempotencyKey,
      message,
      mediaUrls: input.mediaUrls,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing();
  const [post] = await ctx.db
    .select({ id: sandboxPosts.id, views: sandboxPosts.views })
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.platform, input.platform), eq(sandboxPosts.idempotencyKey, input.idempotencyKey)));
  if (!post) throw new ConnectorError('retry', 'post not stored');
  return post;
}

/** The grant an unexpired access token belongs to; an expired or unknown token is refused (401). */
async function grantOf(ctx: Ctx, platform: SocialPlatform, accessToken: string) {
  const [grant] = await ctx.db
    .select()
    .from(sandboxGrants)
    .where(
      and(
        eq(sandboxGrants.accessTokenHash, sha256(accessToken)),
        eq(sandboxGrants.platform, platform),
        gt(sandboxGrants.accessExpiresAt, ctx.clock.now()),
      ),
    );
  if (!grant) throw new ConnectorError('refresh-token', 'invalid_token');
  return grant;
}

async function followersOf(ctx: Ctx, platform: SocialPlatform, ownerUserId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(sandboxFollows)
    .where(and(eq(sandboxFollows.platform, platform), eq(sandboxFollows.ownerUserId, ownerUserId)));
  return Number(row?.n ?? 0);
}

/** Profile API: the followers of the token's account (visitors who pressed Follow on its posts). */
export async function sandboxProfile(ctx: Ctx, platform: SocialPlatform, accessToken: string) {
  const grant = await grantOf(ctx, platform, accessToken);
  return { followerCount: await followersOf(ctx, platform, grant.userId) };
}

/** What the sandbox reports for a post: views and likes; it has no comments or shares. */
export const sandboxFigures = (post: { views: number; likes: number }): PostMetrics => ({
  views: post.views,
  likes: post.likes,
  comments: null,
  shares: null,
});

/** Metrics API: unique views and likes of the account's posts; the sandbox has no comments or shares. */
export async function sandboxPostMetrics(
  ctx: Ctx,
  platform: SocialPlatform,
  accessToken: string,
  ids: readonly string[],
): Promise<Map<string, PostMetrics>> {
  const grant = await grantOf(ctx, platform, accessToken);
  const out = new Map<string, PostMetrics>();
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return out;
  const rows = await ctx.db
    .select({ id: sandboxPosts.id, views: sandboxPosts.views, likes: likesCount })
    .from(sandboxPosts)
    .where(
      and(
        inArray(sandboxPosts.id, valid),
        eq(sandboxPosts.platform, platform),
        // The account's posts under any of its grants (a reconnect makes a new grant).
        inArray(
          sandboxPosts.grantId,
          ctx.db
            .select({ id: sandboxGrants.id })
            .from(sandboxGrants)
            .where(and(eq(sandboxGrants.userId, grant.userId), eq(sandboxGrants.platform, platform))),
        ),
      ),
    );
  for (const r of rows) out.set(r.id, sandboxFigures({ views: r.views, likes: Number(r.likes) }));
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const likesCount = sql<number>`(select count(*)::int from ${sandboxPostLikes} where ${sandboxPostLikes.postId} = ${sandboxPosts.id})`;

/** A post of the sandbox with its figures (null if there is none). */
export async function findSandboxPost(ctx: Ctx, platform: SocialPlatform, id: string) {
  if (!UUID.test(id)) return null;
  const [post] = await ctx.db
    .select({
      id: sandboxPosts.id,
      username: sandboxPosts.username,
      message: sandboxPosts.message,
      mediaUrls: sandboxPosts.mediaUrls,
      createdAt: sandboxPosts.createdAt,
      views: sandboxPosts.views,
      likes: likesCount,
      ownerUserId: sandboxGrants.userId,
    })
    .from(sandboxPosts)
    .leftJoin(sandboxGrants, eq(sandboxGrants.id, sandboxPosts.grantId))
    .where(and(eq(sandboxPosts.id, id), eq(sandboxPosts.platform, platform)));
  if (!post) return null;
  const followers = post.ownerUserId ? await followersOf(ctx, platform, post.ownerUserId) : 0;
  return { ...post, likes: Number(post.likes), followers };
}

/**
 * A visitor's view of a post page: counted once per visitor and UTC day (`visitor` null: a known bot, never
 * counted). Returns the post's views after a counted view, or null when this view did not count.
 */
export async function recordSandboxView(ctx: Ctx, postId: string, visitor: string | null): Promise<number | null> {
  if (!visitor) return null;
  const day = ctx.clock.now().toISOString().slice(0, 10);
  return ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(sandboxPostViews)
      .values({ postId, visitorHash: visitor, day, createdAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning({ postId: sandboxPostViews.postId });
    if (inserted.length === 0) return null;
    const [post] = await tx
      .update(sandboxPosts)
      .set({ views: sql`${sandboxPosts.views} + 1` })
      .where(eq(sandboxPosts.id, postId))
      .returning({ views: sandboxPosts.views });
    return post?.views ?? null;
  });
}

/** The Like button: one like per visitor and post (pressing it again keeps the one like); the likes after it. */
export async function likeSandboxPost(ctx: Ctx, postId: string, visitor: string): Promise<number> {
  await ctx.db
    .insert(sandboxPostLikes)
    .values({ postId, visitorHash: visitor, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db.select({ n: count() }).from(sandboxPostLikes).where(eq(sandboxPostLikes.postId, postId));
  return Number(row?.n ?? 0);
}

/** Whether this visitor has liked the post and follows its account (the share page shows its buttons pressed). */
export async function sandboxVisitorState(
  ctx: Ctx,
  post: { id: string; platform: SocialPlatform; ownerUserId: string | null },
  visitor: string | null,
): Promise<{ liked: boolean; following: boolean }> {
  if (!visitor) return { liked: false, following: false };
  const [liked] = await ctx.db
    .select({ postId: sandboxPostLikes.postId })
    .from(sandboxPostLikes)
    .where(and(eq(sandboxPostLikes.postId, post.id), eq(sandboxPostLikes.visitorHash, visitor)));
  const owner = post.ownerUserId;
  const [following] = owner
    ? await ctx.db
        .select({ owner: sandboxFollows.ownerUserId })
        .from(sandboxFollows)
        .where(
          and(
            eq(sandboxFollows.platform, post.platform),
            eq(sandboxFollows.ownerUserId, owner),
            eq(sandboxFollows.visitorHash, visitor),
          ),
        )
    : [];
  return { liked: Boolean(liked), following: Boolean(following) };
}

/** The Follow button: one follow per visitor and account; the account's follower count after it. */
export async function followSandboxAccount(
  ctx: Ctx,
  platform: SocialPlatform,
  ownerUserId: string,
  visitor: string,
): Promise<number> {
  await ctx.db
    .insert(sandboxFollows)
    .values({ platform, ownerUserId, visitorHash: visitor, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  return followersOf(ctx, platform, ownerUserId);
}
