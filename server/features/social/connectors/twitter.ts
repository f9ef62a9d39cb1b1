import { type Connector, ConnectorError, callApi, pkceCodeFlow } from './types.ts';

// X (Twitter) API v2: OAuth 2.0 authorization code with PKCE (confidential client, Basic auth on the token
// endpoint), GET /2/users/me, POST /2/tweets. Media is linked in the text (media upload is a separate
// chunked API that needs elevated access).

export interface TwitterOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
}

const SCOPES = 'tweet.read tweet.write users.read offline.access';
const MAX_TWEET = 280;

export function twitterConnector(o: TwitterOptions): Connector {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString('base64')}`;
  const oauth = pkceCodeFlow({
    authorizeUrl: `${o.authBase}/i/oauth2/authorize`,
    clientId: o.clientId,
    scope: SCOPES,
    token: (form) =>
      callApi(`${o.apiBase}/2/oauth2/token`, {
        headers: { authorization: basic },
        form: { ...form, client_id: o.clientId },
      }),
  });
  return {
    platform: 'twitter',
    mode: 'live',
    generateAuthUrl: oauth.generateAuthUrl,
    async authenticate(input) {
      const tokens = await oauth.exchangeCode(input);
      const me = await callApi(`${o.apiBase}/2/users/me?user.fields=public_metrics`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const data = (me.body.data ?? {}) as {
        id?: string;
        username?: string;
        public_metrics?: { followers_count?: number };
      };
      if (!data.id || !data.username) throw new ConnectorError('bad-body', 'no user in /2/users/me');
      return {
        tokens,
        profile: {
          externalId: data.id,
          username: data.username,
          followerCount: data.public_metrics?.followers_count ?? 0,
        },
      };
    },
    refreshToken: oauth.refreshToken,
    async post(accessToken, input, signal) {
      const text = [input.message, ...input.mediaUrls].join('\n').slice(0, MAX_TWEET);
      const { body } = await callApi(
        `${o.apiBase}/2/tweets`,
        { headers: { authorization: `Bearer ${accessToken}` }, json: { text } },
        signal,
      );
      const id = (body.data as { id?: string } | undefined)?.id;
      if (!id) throw new ConnectorError('bad-body', 'no tweet id in the reply');
      return { externalId: id, shareUrl: `https://x.com/i/web/status/${id}`, views: null };
    },
  };
}
