import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { SocialPlatform } from '../../../common/api/social.ts';
import type { AppContext } from '../../context.ts';
import { socialAccounts, socialPosts } from '../../db/schema/index.ts';
import type { ScheduledJob } from '../../platform/jobs/types.ts';
import { type AccountRow, freshAccessToken } from './accounts.ts';
import { connectorFor, networkAvailability } from './connectors/registry.ts';
import type { PostMetrics } from './connectors/types.ts';
import { sweepPublishJournal } from './publish-journal.ts';

// Reach and engagement as the networks report them. Follower counts land in social_accounts.follower_count
// and post figures in social_posts.views/likes/comments/shares, each with metrics_updated_at:
// - the sandbox networks write them at once (a counted view, a like, a follow on the share page);
// - every quarter hour the workers' metricsRefreshJob reads them from the networks (Connector.fetchProfile
//   and fetchPostMetrics) for the accounts whose figures are older than two intervals.
// The roll-ups (directory cards, personas, campaign progress) are computed from these columns when read.

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>;

/** Figures older than two refresh intervals (30 minutes by default) are read again. */
const staleMsOf = (config: Pick<AppContext['config'], 'SOCIAL_METRICS_REFRESH_SECONDS'>) =>
  2 * config.SOCIAL_METRICS_REFRESH_SECONDS * 1000;
/** Posts older than this are no longer read back from the networks (their figures stay as last read). */
const POST_METRICS_WINDOW_MS = 90 * 24 * 3600_000;

/** A post's figures as the network reported them, stored on our post (matched by network and network id). */
export async function storePostMetrics(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  platform: SocialPlatform,
  externalId: string,
  m: PostMetrics,
): Promise<void> {
  await ctx.db
    .update(socialPosts)
    .set({ ...m, metricsUpdatedAt: ctx.clock.now() })
    .where(and(eq(socialPosts.platform, platform), eq(socialPosts.externalId, externalId)));
}

/** A sandbox account gained a follower: the studio account connected to it follows. */
export async function storeSandboxFollowers(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  platform: SocialPlatform,
  ownerUserId: string,
  followerCount: number,
): Promise<void> {
  await ctx.db
    .update(socialAccounts)
    .set({ followerCount, metricsUpdatedAt: ctx.clock.now() })
    .where(
      and(
        eq(socialAccounts.userId, ownerUserId),
        eq(socialAccounts.platform, platform),
        eq(socialAccounts.mode, 'sandbox'),
      ),
    );
}

/**
 * Reads one account's follower count and its recent published posts' figures from its network. An account whose
 * connector changed mode since it was connected (live keys added or removed) is left alone.
 */
async function refreshAccountMetrics(ctx: Ctx, account: AccountRow): Promise<void> {
  const platform = account.platform as SocialPlatform;
  const connector = connectorFor(ctx, platform);
  if (connector.mode !== account.mode || !networkAvailability(ctx.config, platform).available) return;
  const token = await freshAccessToken(ctx, account, connector);
  const now = ctx.clock.now();
  const { followerCount } = await connector.fetchProfile(token);
  await ctx.db
    .update(socialAccounts)
    .set({ followerCount, metricsUpdatedAt: now })
    .where(eq(socialAccounts.id, account.id));
  const posts = await ctx.db
    .select({ externalId: socialPosts.externalId })
    .from(socialPosts)
    .where(
      and(
        eq(socialPosts.userId, account.userId),
        eq(socialPosts.platform, platform),
        eq(socialPosts.status, 'published'),
        isNotNull(socialPosts.externalId),
        sql`${socialPosts.publishedAt} > ${new Date(now.getTime() - POST_METRICS_WINDOW_MS)}`,
      ),
    );
  const ids = posts.map((p) => p.externalId as string);
  if (ids.length === 0) return;
  const figures = await connector.fetchPostMetrics(token, ids);
  for (const [externalId, m] of figures) await storePostMetrics(ctx, platform, externalId, m);
}

/**
 * The scheduled pass: every connected account whose figures are older than `staleMs` (or never read). A failing
 * network is logged and tried again next pass; the figures it had keep their metrics_updated_at.
 */
export async function refreshStaleMetrics(ctx: Ctx, staleMs = staleMsOf(ctx.config)): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - staleMs);
  const accounts = await ctx.db
    .select()
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.status, 'connected'),
        or(isNull(socialAccounts.metricsUpdatedAt), lt(socialAccounts.metricsUpdatedAt, before)),
      ),
    );
  let refreshed = 0;
  for (const account of accounts) {
    try {
      await refreshAccountMetrics(ctx, account);
      refreshed++;
    } catch (error) {
      ctx.log.warn({ err: error, platform: account.platform, accountId: account.id }, 'social metrics refresh failed');
    }
  }
  return refreshed;
}

/**
 * The metrics refresh as a pg-boss job run by the workers (server/jobs.ts), one run at a time across all
 * processes, every SOCIAL_METRICS_REFRESH_SECONDS (a quarter hour by default): it re-reads accounts whose figures
 * are older than two intervals. The social feature's periodic pass, it also sweeps the publish journal.
 */
export const metricsRefreshJob: ScheduledJob = {
  name: 'social.metrics-refresh',
  everySeconds: (ctx) => ctx.config.SOCIAL_METRICS_REFRESH_SECONDS,
  async run(ctx) {
    const journalSwept = await sweepPublishJournal(ctx.db);
    const refreshed = await refreshStaleMetrics(ctx);
    return { refreshed, journalSwept };
  },
};
