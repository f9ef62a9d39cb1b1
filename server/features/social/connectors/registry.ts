import type { SocialPlatform } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import type { Config } from '../../../config.ts';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../platform/errors.ts';
import { databasePublishJournal } from '../publish-journal.ts';
import { SANDBOX_NAMES } from '../sandbox/network.ts';
import { facebookConnector } from './facebook.ts';
import { instagramConnector } from './instagram.ts';
import { linkedinConnector } from './linkedin.ts';
import { sandboxConnector } from './sandbox.ts';
import { tiktokConnector } from './tiktok.ts';
import { twitterConnector } from './twitter.ts';
import type { Connector } from './types.ts';
import { youtubeConnector } from './youtube.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;
const M = MESSAGES.social;

/**
 * The connector of a platform: the live API when `<PLATFORM>_CLIENT_ID/_SECRET` are set (every network of the
 * specification has a live connector), else the sandbox network.
 */
export function connectorFor(ctx: Ctx, platform: SocialPlatform): Connector {
  const c = ctx.config;
  if (platform === 'twitter' && c.TWITTER_CLIENT_ID && c.TWITTER_CLIENT_SECRET) {
    return twitterConnector({
      clientId: c.TWITTER_CLIENT_ID,
      clientSecret: c.TWITTER_CLIENT_SECRET,
      apiBase: c.TWITTER_API_BASE ?? 'https://api.x.com',
      authBase: c.TWITTER_AUTH_BASE ?? 'https://x.com',
    });
  }
  if (platform === 'linkedin' && c.LINKEDIN_CLIENT_ID && c.LINKEDIN_CLIENT_SECRET) {
    return linkedinConnector({
      clientId: c.LINKEDIN_CLIENT_ID,
      clientSecret: c.LINKEDIN_CLIENT_SECRET,
      apiBase: c.LINKEDIN_API_BASE ?? 'https://api.linkedin.com',
      authBase: c.LINKEDIN_AUTH_BASE ?? 'https://www.linkedin.com',
    });
  }
  if (platform === 'instagram' && c.INSTAGRAM_CLIENT_ID && c.INSTAGRAM_CLIENT_SECRET) {
    return instagramConnector({
      journal: databasePublishJournal(ctx.db),
      clientId: c.INSTAGRAM_CLIENT_ID,
      clientSecret: c.INSTAGRAM_CLIENT_SECRET,
      apiBase: c.INSTAGRAM_API_BASE ?? 'https://graph.instagram.com',
      authBase: c.INSTAGRAM_AUTH_BASE ?? 'https://www.instagram.com',
      tokenBase: c.INSTAGRAM_AUTH_BASE ?? 'https://api.instagram.com',
    });
  }
  if (platform === 'facebook' && c.FACEBOOK_CLIENT_ID && c.FACEBOOK_CLIENT_SECRET) {
    return facebookConnector({
      journal: databasePublishJournal(ctx.db),
      clientId: c.FACEBOOK_CLIENT_ID,
      clientSecret: c.FACEBOOK_CLIENT_SECRET,
      apiBase: c.FACEBOOK_API_BASE ?? 'https://graph.facebook.com',
      authBase: c.FACEBOOK_AUTH_BASE ?? 'https://www.facebook.com',
    });
  }
  if (platform === 'tiktok' && c.TIKTOK_CLIENT_ID && c.TIKTOK_CLIENT_SECRET) {
    return tiktokConnector({
      journal: databasePublishJournal(ctx.db),
      clientKey: c.TIKTOK_CLIENT_ID,
      clientSecret: c.TIKTOK_CLIENT_SECRET,
      apiBase: c.TIKTOK_API_BASE ?? 'https://open.tiktokapis.com',
      authBase: c.TIKTOK_AUTH_BASE ?? 'https://www.tiktok.com',
    });
  }
  if (platform === 'youtube' && c.YOUTUBE_CLIENT_ID && c.YOUTUBE_CLIENT_SECRET) {
    return youtubeConnector({
      journal: databasePublishJournal(ctx.db),
      clientId: c.YOUTUBE_CLIENT_ID,
      clientSecret: c.YOUTUBE_CLIENT_SECRET,
      apiBase: c.YOUTUBE_API_BASE ?? 'https://www.googleapis.com',
      authBase: c.YOUTUBE_AUTH_BASE ?? 'https://accounts.google.com',
      tokenUrl:
        c.YOUTUBE_TOKEN_URL ??
        (c.YOUTUBE_AUTH_BASE ? `${c.YOUTUBE_AUTH_BASE}/token` : 'https://oauth2.googleapis.com/token'),
    });
  }
  return sandboxConnector(ctx, platform);
}

/** Every platform's live connector, by the prefix of its credentials (`<PREFIX>_CLIENT_ID/_SECRET`). */
const LIVE_CREDENTIALS = {
  twitter: 'TWITTER',
  linkedin: 'LINKEDIN',
  instagram: 'INSTAGRAM',
  facebook: 'FACEBOOK',
  tiktok: 'TIKTOK',
  youtube: 'YOUTUBE',
} as const satisfies Record<SocialPlatform, string>;

type NetworkAvailability =
  | { available: true; mode: 'live' | 'sandbox' }
  | { available: false; mode: 'sandbox'; reason: string };

type AvailabilityConfig = Pick<
  Config,
  'SANDBOX_NETWORKS' | `${(typeof LIVE_CREDENTIALS)[SocialPlatform]}_CLIENT_${'ID' | 'SECRET'}`
>;

/**
 * Whether people may connect and publish to `platform` on this server (issue 27): live when its credentials are set
 * and a live connector exists; else the sandbox network when SANDBOX_NETWORKS is on (the default outside
 * production); else unavailable, with the reason and what enables it (as engines are).
 */
export function networkAvailability(config: AvailabilityConfig, platform: SocialPlatform): NetworkAvailability {
  const prefix = LIVE_CREDENTIALS[platform];
  if (prefix && config[`${prefix}_CLIENT_ID`] && config[`${prefix}_CLIENT_SECRET`])
    return { available: true, mode: 'live' };
  if (config.SANDBOX_NETWORKS) return { available: true, mode: 'sandbox' };
  const name = SANDBOX_NAMES[platform];
  return {
    available: false,
    mode: 'sandbox',
    reason: M.networkUnavailable(name, prefix),
  };
}

/** Throws 503 with the reason when `platform` is unavailable on this server (connect, publish, schedule). */
export function assertNetworkAvailable(config: AvailabilityConfig, platform: SocialPlatform): void {
  const availability = networkAvailability(config, platform);
  if (!availability.available) throw new AppError(503, 'network_unavailable', availability.reason);
}
