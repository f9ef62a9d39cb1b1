import { type Connector, ConnectorError, callApi, countOf, type PostMetrics, pkceCodeFlow } from './types.ts';

// LinkedIn: OAuth 2.0 authorization code (client secret on the token endpoint; the PKCE pair is sent too),
// OpenID userinfo for the member id, and the Posts API (POST /rest/posts) as the member. Media is linked in
// the commentary (image/video upload is a separate multi-step API). Figures: GET /rest/memberFollowersCount?q=me
// (followers) and GET /rest/socialActions/{urn} (likesSummary, commentsSummary) per post; LinkedIn grants these
// reads (r_member_profileAnalytics, r_member_social) to approved apps only, and reports no views or reshares for
// member posts, so those stay null.

export interface LinkedinOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
}

const SCOPES = 'openid profile w_member_social';
const VERSION = '202405';

export function linkedinConnector(o: LinkedinOptions): Connector {
  const oauth = pkceCodeFlow({
    authorizeUrl: `${o.authBase}/oauth/v2/authorization`,
    clientId: o.clientId,
    scope: SCOPES,
    token: (form) =>
      callApi(`${o.authBase}/oauth/v2/accessToken`, {
        form: { ...form, client_id: o.clientId, client_secret: o.clientSecret },
      }),
  });
  const restHeaders = (accessToken: string) => ({
    authorization: `Bearer ${accessToken}`,
    'linkedin-version': VERSION,
    'x-restli-protocol-version': '2.0.0',
  });
  return {
    platform: 'linkedin',
    mode: 'live',
    generateAuthUrl: oauth.generateAuthUrl,
    async authenticate(input) {
      const tokens = await oauth.exchangeCode(input);
      const me = await callApi(`${o.apiBase}/v2/userinfo`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const sub = me.body.sub;
      if (typeof sub !== 'string' || !sub) throw new ConnectorError('bad-body', 'no member id in /v2/userinfo');
      const name = typeof me.body.name === 'string' ? me.body.name : sub;
      return { tokens, profile: { externalId: sub, username: name, followerCount: null } };
    },
    refreshToken: oauth.refreshToken,
    async fetchProfile(accessToken) {
      const { body } = await callApi(`${o.apiBase}/rest/memberFollowersCount?q=me`, {
        headers: restHeaders(accessToken),
      });
      const first = ((body.elements ?? []) as Array<Record<string, unknown>>)[0];
      const followerCount = countOf(first?.memberFollowersCount);
      if (followerCount === null) throw new ConnectorError('bad-body', 'no memberFollowersCount in the reply');
      return { followerCount };
    },
    async fetchPostMetrics(accessToken, externalIds) {
      const out = new Map<string, PostMetrics>();
      for (const urn of externalIds) {
        const reply = await callApi(`${o.apiBase}/rest/socialActions/${encodeURIComponent(urn)}`, {
          headers: restHeaders(accessToken),
        }).catch((error: unknown) => {
          // A post deleted on LinkedIn is left out, as X leaves out a deleted tweet.
          if (error instanceof ConnectorError && error.status === 404) return null;
          throw error;
        });
        if (!reply) continue;
        const { body } = reply;
        const likes = body.likesSummary as Record<string, unknown> | undefined;
        const comments = body.commentsSummary as Record<string, unknown> | undefined;
        out.set(urn, {
          views: null,
          likes: countOf(likes?.totalLikes),
          comments: countOf(comments?.aggregatedTotalComments ?? comments?.totalFirstLevelComments),
          shares: null,
        });
      }
      return out;
    },
    async post(accessToken, input, signal) {
      const commentary = [input.message, ...input.mediaUrls].join('\n');
      const { headers } = await callApi(
        `${o.apiBase}/rest/posts`,
        {
          headers: restHeaders(accessToken),
          json: {
            author: `urn:li:person:${input.authorId}`,
            commentary,
            visibility: 'PUBLIC',
            distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
            lifecycleState: 'PUBLISHED',
            isReshareDisabledByAuthor: false,
          },
        },
        signal,
      );
      const urn = headers.get('x-restli-id');
      if (!urn) throw new ConnectorError('bad-body', 'no x-restli-id in the reply');
      return { externalId: urn, shareUrl: `https://www.linkedin.com/feed/update/${urn}`, views: null };
    },
  };
}
