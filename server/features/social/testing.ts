// Helpers of the social integration tests: the sandbox consent flow as a browser runs it, and share-page visits.
import type { PublishResult } from '../../../common/api/social.ts';
import { authHeader, type TestUser } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/harness.ts';

export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The sandbox consent page opened with `cookie`, then its form sent with `decision`: both replies. */
export async function submitConsent(
  t: TestApp,
  cookie: string,
  platform: string,
  authUrl: string,
  decision: 'approve' | 'deny',
) {
  const consent = await t.app.inject({ method: 'GET', url: pathOf(authUrl), headers: { cookie } });
  const fields = Object.fromEntries(
    [...consent.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      (m[2] as string).replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    ]),
  );
  const answered = await t.app.inject({
    method: 'POST',
    url: `/social/sandbox/${platform}/authorize`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, decision }).toString(),
  });
  return { consent, answered };
}

/** Connect → consent page → Approve → callback, in `user`'s browser; throws unless the account connected. Answers the callback page. */
export async function connectSandbox(t: TestApp, user: TestUser, platform: string): Promise<string> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/social/connect/${platform}`,
    headers: authHeader(user.token),
  });
  const { authUrl } = started.json() as { authUrl: string };
  const connectCookie = String([started.headers['set-cookie']].flat()[0]).split(';')[0];
  const cookie = `genpro_session=${user.token}`;
  const { answered } = await submitConsent(t, cookie, platform, authUrl, 'approve');
  const callback = await t.app.inject({
    method: 'GET',
    url: pathOf(String(answered.headers.location)),
    headers: { cookie: `${cookie}; ${connectCookie}` },
  });
  if (callback.statusCode !== 200) throw new Error(`connect ${platform} failed: ${callback.body}`);
  return callback.body;
}

/** POST /api/social/publish as `user`; the results. */
export async function publishNow(t: TestApp, user: TestUser, body: Record<string, unknown>): Promise<PublishResult[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/social/publish',
    headers: authHeader(user.token),
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`publish failed: ${res.body}`);
  return (res.json() as { data: { results: PublishResult[] } }).data.results;
}

/** A visitor of a share page: a browser (address + user agent) that views, likes and follows. */
export function visitor(t: TestApp, shareUrl: string, userAgent: string, remoteAddress = '203.0.113.10') {
  const url = pathOf(shareUrl);
  const headers = { 'user-agent': userAgent };
  return {
    view: () => t.app.inject({ method: 'GET', url, headers, remoteAddress }),
    press: (action: 'like' | 'follow') =>
      t.app.inject({ method: 'POST', url: `${url}/${action}`, headers, remoteAddress }),
  };
}

/** The figure a share page shows for `testId` (post-views, post-likes, post-followers). */
export function shownFigure(html: string, testId: string): number {
  const m = html.match(new RegExp(`<span data-testid="${testId}">(\\d+)</span>`));
  if (!m) throw new Error(`no ${testId} on the page`);
  return Number(m[1]);
}
