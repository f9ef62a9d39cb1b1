import type { SocialPlatform } from '../../../../common/api/social.ts';
import type { AppContext } from '../../../context.ts';
import { linkedinConnector } from './linkedin.ts';
import { sandboxConnector } from './sandbox.ts';
import { twitterConnector } from './twitter.ts';
import type { Connector } from './types.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

/**
 * The connector of a platform: the live API when `<PLATFORM>_CLIENT_ID/_SECRET` are set and a live connector
 * exists for it (X and LinkedIn), else the sandbox network.
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
  return sandboxConnector(ctx, platform);
}
