import { and, eq, lt } from 'drizzle-orm';
import { SOCIAL_PLATFORMS, type SocialAccount, type SocialPlatform } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { socialAccounts, socialOauthStates } from '../../db/schema/index.ts';
import { generateToken, safeEqualHex, sha256 } from '../../platform/auth/crypto.ts';
import { badRequest } from '../../platform/errors.ts';
import { seal, unseal } from '../security/secret-box.ts';
import { assertNetworkAvailable, connectorFor, networkAvailability } from './connectors/registry.ts';
import { type Connector, ConnectorError, type TokenSet } from './connectors/types.ts';
import { revokeGrant, SANDBOX_NAMES } from './sandbox/network.ts';

const M = MESSAGES.social;
type Ctx = Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>;
export type AccountRow = typeof socialAccounts.$inferSelect;

/** How long a connect flow (its state row and its browser's nonce cookie) stays valid. */
export const CONNECT_TTL_MS = 10 * 60_000;
/** Tokens are refreshed when they expire within this window. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const TOKEN_PURPOSE = 'social-token';
const VERIFIER_PURPOSE = 'social-pkce';

const ICONS: Record<SocialPlatform, string> = {
  instagram: 'instagram',
  tiktok: 'music-2',
  youtube: 'youtube',
  twitter: 'twitter',
  linkedin: 'linkedin',
  facebook: 'facebook',
};

export function redirectUriFor(ctx: Pick<AppContext, 'config'>, platform: SocialPlatform): string {
  return `${ctx.config.publicUrl}/api/social/oauth/${platform}`;
}

function toDto(ctx: Ctx, platform: SocialPlatform, row: AccountRow | undefined): SocialAccount {
  const availability = networkAvailability(ctx.config, platform);
  return {
    id: platform,
    name: SANDBOX_NAMES[platform],
    icon: ICONS[platform],
    platform,
    username: row?.username ?? null,
    follower_count: row?.followerCount ?? null,
    status: row ? row.status : 'disconnected',
    isConnected: Boolean(row),
    mode: row ? row.mode : connectorFor(ctx, platform).mode,
    available: availability.available,
    unavailableReason: availability.available ? null : availability.reason,
    connected_at: row ? row.connectedAt.toISOString() : null,
    error_message: row?.errorMessage ?? null,
  };
}

/** GET /api/social/accounts: every platform, connected or not. */
export async function listAccounts(ctx: Ctx, userId: string): Promise<SocialAccount[]> {
  const rows = await ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
  const byPlatform = new Map(rows.map((r) => [r.platform, r]));
  return SOCIAL_PLATFORMS.map((p) => toDto(ctx, p, byPlatform.get(p)));
}

export async function connectedAccounts(ctx: Pick<AppContext, 'db'>, userId: string): Promise<AccountRow[]> {
  return ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
}

/**
 * POST /api/social/connect/{platformId}: the provider's authorization URL (PKCE verifier kept sealed) and the
 * nonce the route puts in the starting browser's cookie (only its hash is stored).
 */
export async function startConnect(
  ctx: Ctx,
  userId: string,
  platform: SocialPlatform,
): Promise<{ authUrl: string; browserNonce: string }> {
  assertNetworkAvailable(ctx.config, platform);
  const now = ctx.clock.now();
  await ctx.db.delete(socialOauthStates).where(lt(socialOauthStates.expiresAt, now));
  const auth = connectorFor(ctx, platform).generateAuthUrl(redirectUriFor(ctx, platform));
  const browserNonce = generateToken();
  await ctx.db.insert(socialOauthStates).values({
    state: auth.state,
    userId,
    platform,
    codeVerifierSealed: seal(ctx.config, VERIFIER_PURPOSE, auth.codeVerifier),
    browserNonceHash: sha256(browserNonce),
    expiresAt: new Date(now.getTime() + CONNECT_TTL_MS),
    createdAt: now,
  });
  return { authUrl: auth.url, browserNonce };
}

/** A Page (or other account) the person may choose after the login, as the chooser shows it. */
interface AccountChoice {
  id: string;
  name: string;
  followerCount: number | null;
}

export type CallbackOutcome =
  | { ok: true; platform: SocialPlatform; username: string; userId: string }
  | { ok: false; message: string }
  /** The login granted several accounts (Facebook Pages): the person chooses one with `choiceId` before any is stored. */
  | { ok: 'choose'; platform: SocialPlatform; choiceId: string; choices: AccountChoice[] };

/** The browser the callback arrives in: its nonce cookie and the user of its session, if it has one. */
export interface CallbackBrowser {
  nonce: string | undefined;
  signedInUserId: string | null;
}

/**
 * Why a callback may not complete its flow in this browser, or null when it may. The state alone is not enough:
 * a victim who finishes an attacker's link would connect the victim's network account to the attacker.
 */
function browserMismatch(pending: { userId: string; browserNonceHash: string }, browser: CallbackBrowser) {
  if (!browser.nonce || !safeEqualHex(sha256(browser.nonce), pending.browserNonceHash)) return 'other-browser';
  if (browser.signedInUserId && browser.signedInUserId !== pending.userId) return 'other-account';
  return null;
}

/**
 * GET /api/social/oauth/{id}: the state (single use, consumed whatever the outcome) names the flow; it completes
 * only in the browser that started it, then the code is exchanged and the account stored.
 */
export async function completeConnect(
  ctx: Ctx,
  platform: SocialPlatform,
  query: { code?: string; state?: string; error?: string },
  browser: CallbackBrowser,
): Promise<CallbackOutcome> {
  if (!query.state) return { ok: false, message: M.connectExpired };
  const [pending] = await ctx.db
    .delete(socialOauthStates)
    .where(and(eq(socialOauthStates.state, query.state), eq(socialOauthStates.platform, platform)))
    .returning();
  if (!pending || pending.expiresAt.getTime() < ctx.clock.now().getTime())
    return { ok: false, message: M.connectExpired };
  const mismatch = browserMismatch(pending, browser);
  if (mismatch) {
    ctx.log.warn({ platform, userId: pending.userId, reason: mismatch }, 'social connect refused');
    return { ok: false, message: mismatch === 'other-browser' ? M.connectOtherBrowser : M.connectOtherAccount };
  }
  if (query.error || !query.code) return { ok: false, message: M.connectDenied };
  const availability = networkAvailability(ctx.config, platform);
  if (!availability.available) return { ok: false, message: availability.reason };
  const connector = connectorFor(ctx, platform);
  try {
    const { tokens, profile, choices } = await connector.authenticate({
      code: query.code,
      codeVerifier: unseal(ctx.config, VERIFIER_PURPOSE, pending.codeVerifierSealed),
      redirectUri: redirectUriFor(ctx, platform),
    });
    if (choices && choices.length > 1) {
      // Nothing is connected yet: the granted accounts (with their tokens, sealed) wait, for this browser only, for
      // the person's choice (completeAccountChoice). The row lives beside the connect states under its own
      // "platform" so that it can never be taken for an OAuth state.
      const now = ctx.clock.now();
      const choiceId = generateToken();
      await ctx.db.insert(socialOauthStates).values({
        state: choiceId,
        userId: pending.userId,
        platform: choicePlatform(platform),
        codeVerifierSealed: seal(ctx.config, CHOICE_PURPOSE, JSON.stringify({ mode: connector.mode, choices })),
        browserNonceHash: pending.browserNonceHash,
        expiresAt: new Date(now.getTime() + CONNECT_TTL_MS),
        createdAt: now,
      });
      return {
        ok: 'choose',
        platform,
        choiceId,
        choices: choices.map((c) => ({
          id: c.profile.externalId,
          name: c.profile.username,
          followerCount: c.profile.followerCount,
        })),
      };
    }
    await storeAccount(ctx, pending.userId, platform, connector.mode, tokens, profile);
    return { ok: true, platform, username: profile.username, userId: pending.userId };
  } catch (error) {
    // A ConnectorError's message is an HTTP status and the provider's error text, never the code or a token we sent.
    ctx.log.warn({ err: error, platform }, 'social connect failed');
    return { ok: false, message: M.connectFailed };
  }
}

const CHOICE_PURPOSE = 'social-account-choice';
const choicePlatform = (platform: SocialPlatform) => `${platform}:choice`;

type Granted = NonNullable<Awaited<ReturnType<Connector['authenticate']>>['choices']>[number];

/**
 * POST /api/social/oauth/{id}/choose: connects the account the person chose among those the login granted. Single
 * use, in the browser that started the connect flow, within the flow's time.
 */
export async function completeAccountChoice(
  ctx: Ctx,
  platform: SocialPlatform,
  form: { choice?: string; account?: string },
  browser: CallbackBrowser,
): Promise<Exclude<CallbackOutcome, { ok: 'choose' }>> {
  if (!form.choice) return { ok: false, message: M.connectExpired };
  const [pending] = await ctx.db
    .delete(socialOauthStates)
    .where(and(eq(socialOauthStates.state, form.choice), eq(socialOauthStates.platform, choicePlatform(platform))))
    .returning();
  if (!pending || pending.expiresAt.getTime() < ctx.clock.now().getTime())
    return { ok: false, message: M.connectExpired };
  const mismatch = browserMismatch(pending, browser);
  if (mismatch) {
    ctx.log.warn({ platform, userId: pending.userId, reason: mismatch }, 'social account choice refused');
    return { ok: false, message: mismatch === 'other-browser' ? M.connectOtherBrowser : M.connectOtherAccount };
  }
  const availability = networkAvailability(ctx.config, platform);
  if (!availability.available) return { ok: false, message: availability.reason };
  const { mode, choices } = JSON.parse(unseal(ctx.config, CHOICE_PURPOSE, pending.codeVerifierSealed)) as {
    mode: 'sandbox' | 'live';
    choices: Granted[];
  };
  const chosen = choices.find((c) => c.profile.externalId === form.account);
  if (!chosen) return { ok: false, message: M.pageNotOffered };
  const tokens = { ...chosen.tokens, expiresAt: chosen.tokens.expiresAt ? new Date(chosen.tokens.expiresAt) : null };
  await storeAccount(ctx, pending.userId, platform, mode, tokens, chosen.profile);
  return { ok: true, platform, username: chosen.profile.username, userId: pending.userId };
}

async function storeAccount(
  ctx: Ctx,
  userId: string,
  platform: SocialPlatform,
  mode: 'sandbox' | 'live',
  tokens: TokenSet,
  profile: Granted['profile'],
) {
  const now = ctx.clock.now();
  const values = {
    mode,
    externalId: profile.externalId,
    username: profile.username,
    followerCount: profile.followerCount,
    metricsUpdatedAt: profile.followerCount === null ? null : now,
    ...sealedTokens(ctx, tokens),
    status: 'connected' as const,
    errorMessage: null,
    connectedAt: now,
    updatedAt: now,
  };
  await ctx.db
    .insert(socialAccounts)
    .values({ userId, platform, ...values, createdAt: now })
    .onConflictDoUpdate({ target: [socialAccounts.userId, socialAccounts.platform], set: values });
}

function sealedTokens(ctx: Ctx, tokens: TokenSet) {
  return {
    accessTokenSealed: seal(ctx.config, TOKEN_PURPOSE, tokens.accessToken),
    refreshTokenSealed: tokens.refreshToken ? seal(ctx.config, TOKEN_PURPOSE, tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
  };
}

/** DELETE /api/social/accounts: revokes sandbox tokens and forgets the account. */
export async function disconnect(ctx: Ctx, userId: string, platform: SocialPlatform | undefined): Promise<void> {
  if (!platform) throw badRequest(M.unknownPlatform);
  const [row] = await ctx.db
    .delete(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.platform, platform)))
    .returning();
  if (row?.mode === 'sandbox') {
    await revokeGrant(ctx, platform, unseal(ctx.config, TOKEN_PURPOSE, row.accessTokenSealed)).catch(() => undefined);
  }
}

/** A usable access token: refreshed (and stored) when it expires soon. A refused refresh marks the account. */
export async function freshAccessToken(
  ctx: Ctx,
  account: AccountRow,
  connector: Connector,
  force = false,
): Promise<string> {
  const soon = ctx.clock.now().getTime() + (connector.refreshMarginMs ?? REFRESH_MARGIN_MS);
  const expiring = account.tokenExpiresAt !== null && account.tokenExpiresAt.getTime() <= soon;
  if (!force && !expiring) return unseal(ctx.config, TOKEN_PURPOSE, account.accessTokenSealed);
  if (!account.refreshTokenSealed) {
    await markAccountError(ctx, account.id, M.tokenExpired);
    throw new ConnectorError('refresh-token', M.tokenExpired);
  }
  let tokens: TokenSet;
  try {
    tokens = await connector.refreshToken(unseal(ctx.config, TOKEN_PURPOSE, account.refreshTokenSealed));
  } catch (error) {
    if (error instanceof ConnectorError && error.failure === 'refresh-token') {
      await markAccountError(ctx, account.id, M.tokenExpired);
      throw new ConnectorError('refresh-token', M.tokenExpired);
    }
    throw error;
  }
  const sealed = sealedTokens(ctx, tokens);
  await ctx.db
    .update(socialAccounts)
    .set({ ...sealed, status: 'connected', errorMessage: null, updatedAt: ctx.clock.now() })
    .where(eq(socialAccounts.id, account.id));
  Object.assign(account, sealed);
  return tokens.accessToken;
}

export async function markAccountError(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  accountId: string,
  message: string | null,
) {
  await ctx.db
    .update(socialAccounts)
    .set({ status: message ? 'error' : 'connected', errorMessage: message, updatedAt: ctx.clock.now() })
    .where(eq(socialAccounts.id, accountId));
}
