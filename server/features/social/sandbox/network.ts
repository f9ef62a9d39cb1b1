import { and, eq, gt, sql } from 'drizzle-orm';
import type { SocialPlatform } from '../../../../common/api/social.ts';
import type { AppContext } from '../../../context.ts';
import { sandboxGrants, sandboxPosts, users } from '../../../db/schema/index.ts';
import { generateToken, sha256 } from '../../../platform/auth/crypto.ts';
import { ConnectorError, s256, type TokenSet } from '../connectors/types.ts';

// The embedded sandbox networks: what a platform does on its side of OAuth and publishing, kept in our
// database. Codes and tokens are stored hashed; posts are public pages that count their views.

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

const CODE_TTL_MS = 10 * 60_000;
/** Short, so that refresh before expiry is exercised for real. */
const SANDBOX_ACCESS_TTL_MS = 60 * 60_000;

export const SANDBOX_NAMES: Record<SocialPlatform, string> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
};

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
): Promise<{ tokens: TokenSet; grantId: string; username: string }> {
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
  return { tokens, grantId: grant.id, username: grant.username };
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

/** Publishing API: one post per idempotency key; an expired or unknown token is refused (401). */
export async function createSandboxPost(
  ctx: Ctx,
  input: {
    platform: SocialPlatform;
    accessToken: string;
    message: string;
    mediaUrls: string[];
    idempotencyKey: string;
  },
): Promise<{ id: string; views: number }> {
  const [grant] = await ctx.db
    .select()
    .from(sandboxGrants)
    .where(
      and(
        eq(sandboxGrants.accessTokenHash, sha256(input.accessToken)),
        eq(sandboxGrants.platform, input.platform),
        gt(sandboxGrants.accessExpiresAt, ctx.clock.now()),
      ),
    );
  if (!grant) throw new ConnectorError('refresh-token', 'invalid_token');
  await ctx.db
    .insert(sandboxPosts)
    .values({
      platform: input.platform,
      grantId: grant.id,
      username: grant.username,
      idempotencyKey: input.idempotencyKey,
      message: input.message,
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

/** A public view of a post page: counts it and returns the post (null if there is none). */
export async function viewSandboxPost(ctx: Ctx, platform: SocialPlatform, id: string) {
  const [post] = await ctx.db
    .update(sandboxPosts)
    .set({ views: sql`${sandboxPosts.views} + 1` })
    .where(and(eq(sandboxPosts.id, id), eq(sandboxPosts.platform, platform)))
    .returning();
  return post ?? null;
}
