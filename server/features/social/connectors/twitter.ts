import { type Connector, ConnectorError, callApi, countOf, type PostMetrics, pkceCodeFlow } from './types.ts';

// X (Twitter) API v2: OAuth 2.0 authorization code with PKCE (confidential client, Basic auth on the token
// endpoint), GET /2/users/me (public_metrics.followers_count), POST /2/tweets, and GET /2/tweets?ids= with
// tweet.fields=public_metrics (impression_count, like_count, reply_count, retweet_count, quote_count). Media is linked in the text (media upload is a separate
// chunked API that needs elevated access).

export interface TwitterOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authBase: string;
}

const SCOPES = 'tweet.read tweet.write users.read offline.access';
/** GET /2/tweets takes at most 100 ids a call. */
const IDS_PER_LOOKUP = 100;

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
  async function usersMe(accessToken: string) {
    const me = await callApi(`${o.apiBase}/2/users/me?user.fields=public_metrics`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const data = (me.body.data ?? {}) as { id?: string; username?: string; public_metrics?: Record<string, unknown> };
    return { id: data.id, username: data.username, followerCount: countOf(data.public_metrics?.followers_count) };
  }
  return {
    platform: 'twitter',
    mode: 'live',
    generateAuthUrl: oauth.generateAuthUrl,
    async authenticate(input) {
      const tokens = await oauth.exchangeCode(input);
      const me = await usersMe(tokens.accessToken);
      if (!me.id || !me.username) throw new ConnectorError('bad-body', 'no user in /2/users/me');
      return {
        tokens,
        profile: { externalId: me.id, username: me.username, followerCount: me.followerCount },
      };
    },
    async fetchProfile(accessToken) {
      const me = await usersMe(accessToken);
      if (me.followerCount === null) throw new ConnectorError('bad-body', 'no public_metrics in /2/users/me');
      return { followerCount: me.followerCount };
    },
    async fetchPostMetrics(accessToken, externalIds) {
      const out = new Map<string, PostMetrics>();
      for (let i = 0; i < externalIds.length; i += IDS_PER_LOOKUP) {
        const ids = externalIds.slice(i, i + IDS_PER_LOOKUP).join(',');
        const { body } = await callApi(`${o.apiBase}/2/tweets?ids=${ids}&tweet.fields=public_metrics`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        // Deleted or protected tweets come back under `errors`, not `data`: left out.
        for (const tweet of (body.data ?? []) as Array<{ id?: string; public_metrics?: Record<string, unknown> }>) {
          const m = tweet.public_metrics;
          if (!tweet.id || !m) continue;
          const retweets = countOf(m.retweet_count);
          const quotes = countOf(m.quote_count);
          out.set(tweet.id, {
            views: countOf(m.impression_count),
            likes: countOf(m.like_count),
            comments: countOf(m.reply_count),
            shares: retweets === null && quotes === null ? null : (retweets ?? 0) + (quotes ?? 0),
          });
        }
      }
      return out;
    },
    refreshToken: oauth.refreshToken,
    async post(accessToken, input, signal) {
      // The message was fitted to X's limit before (common/rules/post-text.ts); links count 23 each there.
      const text = [input.message, ...input.mediaUrls].join('\n');
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
