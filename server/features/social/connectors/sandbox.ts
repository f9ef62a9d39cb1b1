import type { SocialPlatform } from '../../../../common/api/social.ts';
import type { AppContext } from '../../../context.ts';
import {
  createSandboxPost,
  exchangeCode,
  refreshGrant,
  sandboxPostMetrics,
  sandboxPostUrl,
  sandboxProfile,
} from '../sandbox/network.ts';
import { type Connector, pkcePair } from './types.ts';

/** The embedded default: the platform's sandbox network on this server (local consent and post pages). */
export function sandboxConnector(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  platform: SocialPlatform,
): Connector {
  return {
    platform,
    mode: 'sandbox',
    generateAuthUrl(redirectUri) {
      const { codeVerifier, codeChallenge, state } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'genpro-studio',
        redirect_uri: redirectUri,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        scope: 'profile publish',
      });
      return { url: `${ctx.config.publicUrl}/social/sandbox/${platform}/authorize?${query}`, codeVerifier, state };
    },
    async authenticate({ code, codeVerifier }) {
      const { tokens, grantId, username, followerCount } = await exchangeCode(ctx, { platform, code, codeVerifier });
      return { tokens, profile: { externalId: grantId, username, followerCount } };
    },
    refreshToken: (refreshToken) => refreshGrant(ctx, platform, refreshToken),
    async post(accessToken, input) {
      const post = await createSandboxPost(ctx, { platform, accessToken, ...input });
      return { externalId: post.id, shareUrl: sandboxPostUrl(ctx, platform, post.id), views: post.views };
    },
    fetchProfile: (accessToken) => sandboxProfile(ctx, platform, accessToken),
    fetchPostMetrics: (accessToken, ids) => sandboxPostMetrics(ctx, platform, accessToken, ids),
  };
}
