import sharp from 'sharp';
import {
  type AuthCallback,
  type Authenticated,
  type Connector,
  ConnectorError,
  callApi,
  countOf,
  type PostInput,
  type PostMedia,
  type PostMetrics,
  pkceCodeFlow,
} from './types.ts';
import { callRaw, pause } from './upload.ts';

// LinkedIn: OAuth 2.0 authorization code (client secret on the token endpoint; the PKCE pair is sent too),
// OpenID userinfo for the member id, and the Posts API (POST /rest/posts) as the member. Media is uploaded:
// images with the Images API (POST /rest/images?action=initializeUpload → value.uploadUrl + value.image, PUT the
// bytes), videos with the Videos API (POST /rest/videos?action=initializeUpload with fileSizeBytes →
// value.uploadInstructions, PUT each byte range and keep its ETag, POST /rest/videos?action=finalizeUpload with
// the ETags, then GET /rest/videos/{urn} until AVAILABLE); the post carries content.media.id (one file) or
// content.multiImage.images (several images). Figures: GET /rest/memberFollowersCount?q=me
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
/**
 * The LinkedIn-Version every /rest call sends (Marketing and Community Management APIs, monthly YYYYMM versions).
 * LinkedIn keeps a version for about a year, then answers 426 NONEXISTENT_VERSION: 202609 (September 2026, the
 * latest listed when this was set in November 2026) lives until about September 2027. Move it within the year
 * (docs/publishing.md, LinkedIn). The fake (server/test/fakes/linkedin.ts) takes this constant and refuses sunset ones.
 */
export const LINKEDIN_VERSION = '202609';
/** LinkedIn's published limits: images JPEG/PNG/GIF under 36,152,320 pixels; videos MP4 75 KB–500 MB, 3 s–30 min. */
const MAX_IMAGE_PIXELS = 36_152_320;
const VIDEO_BYTES = { min: 75 * 1024, max: 500 * 1024 * 1024 };
const VIDEO_SECONDS = { min: 3, max: 30 * 60 };
const MAX_IMAGES = 20;
/** The longest a video is waited for LinkedIn's processing before the attempt is retried later. */
const PROCESSING_WAIT_SECONDS = 240;

/** Refuses media LinkedIn does not take, before anything is uploaded. */
function checkMedia(media: readonly PostMedia[]): void {
  const videos = media.filter((m) => m.kind === 'video');
  if (videos.length > 0 && media.length > 1) throw new ConnectorError('bad-body', 'LinkedIn takes one video a post');
  if (media.length > MAX_IMAGES)
    throw new ConnectorError('bad-body', `LinkedIn takes up to ${MAX_IMAGES} images a post`);
  for (const m of media) {
    if (m.kind === 'image' && m.width && m.height && m.width * m.height > MAX_IMAGE_PIXELS) {
      throw new ConnectorError('bad-body', 'LinkedIn takes images of up to 36 megapixels');
    }
    if (m.kind !== 'video') continue;
    if (m.contentType !== 'video/mp4') throw new ConnectorError('bad-body', 'LinkedIn takes MP4 videos');
    if (m.sizeBytes < VIDEO_BYTES.min || m.sizeBytes > VIDEO_BYTES.max) {
      throw new ConnectorError('bad-body', 'LinkedIn takes videos of 75 KB to 500 MB');
    }
    const d = m.durationSeconds;
    if (d !== null && (d < VIDEO_SECONDS.min || d > VIDEO_SECONDS.max)) {
      throw new ConnectorError('bad-body', 'LinkedIn takes videos of 3 seconds to 30 minutes');
    }
  }
}

/** What the steps of one LinkedIn connector share: its options and its OAuth flow. */
interface LinkedinContext extends LinkedinOptions {
  oauth: ReturnType<typeof pkceCodeFlow>;
}

export function linkedinConnector(options: LinkedinOptions): Connector {
  const oauth = pkceCodeFlow({
    authorizeUrl: `${options.authBase}/oauth/v2/authorization`,
    clientId: options.clientId,
    scope: SCOPES,
    token: (form) =>
      callApi(`${options.authBase}/oauth/v2/accessToken`, {
        form: { ...form, client_id: options.clientId, client_secret: options.clientSecret },
      }),
  });
  const o: LinkedinContext = { ...options, oauth };
  return {
    platform: 'linkedin',
    mode: 'live',
    generateAuthUrl: oauth.generateAuthUrl,
    authenticate: (input) => authenticate(o, input),
    refreshToken: oauth.refreshToken,
    fetchProfile: (accessToken) => fetchProfile(o, accessToken),
    fetchPostMetrics: (accessToken, externalIds) => fetchPostMetrics(o, accessToken, externalIds),
    post: (accessToken, input, signal) => post(o, accessToken, input, signal),
  };
}

const restHeaders = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  'linkedin-version': LINKEDIN_VERSION,
  'x-restli-protocol-version': '2.0.0',
});

/** An image through the Images API (JPEG, PNG or GIF: a WebP is sent as PNG); answers its urn:li:image. */
async function uploadImage(
  o: LinkedinContext,
  accessToken: string,
  owner: string,
  media: PostMedia,
  signal?: AbortSignal,
) {
  let bytes = await media.read();
  if (!['image/jpeg', 'image/png', 'image/gif'].includes(media.contentType))
    bytes = await sharp(bytes).png().toBuffer();
  const { body } = await callApi(
    `${o.apiBase}/rest/images?action=initializeUpload`,
    { headers: restHeaders(accessToken), json: { initializeUploadRequest: { owner } } },
    signal,
  );
  const value = (body.value ?? {}) as { uploadUrl?: string; image?: string };
  if (!value.uploadUrl || !value.image) throw new ConnectorError('bad-body', 'no uploadUrl in the image reply');
  await callRaw(
    value.uploadUrl,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    },
    signal,
  );
  return value.image;
}

/** A video through the Videos API, in the parts LinkedIn asks for; answers its urn:li:video once available. */
async function uploadVideo(
  o: LinkedinContext,
  accessToken: string,
  owner: string,
  media: PostMedia,
  signal?: AbortSignal,
) {
  const bytes = await media.read();
  const { body } = await callApi(
    `${o.apiBase}/rest/videos?action=initializeUpload`,
    {
      headers: restHeaders(accessToken),
      json: {
        initializeUploadRequest: {
          owner,
          fileSizeBytes: bytes.length,
          uploadCaptions: false,
          uploadThumbnail: false,
        },
      },
    },
    signal,
  );
  const value = (body.value ?? {}) as {
    video?: string;
    uploadToken?: string;
    uploadInstructions?: Array<{ uploadUrl?: string; firstByte?: number; lastByte?: number }>;
  };
  const parts = value.uploadInstructions ?? [];
  if (!value.video || parts.length === 0) throw new ConnectorError('bad-body', 'no upload instructions in the reply');
  const etags: string[] = [];
  for (const part of parts) {
    const first = Number(part.firstByte);
    const last = Number(part.lastByte);
    if (!part.uploadUrl || !Number.isInteger(first) || !Number.isInteger(last) || last < first) {
      throw new ConnectorError('bad-body', 'a malformed upload instruction in the reply');
    }
    const put = await callRaw(
      part.uploadUrl,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/octet-stream' },
        body: bytes.subarray(first, last + 1),
      },
      signal,
    );
    const etag = put.headers.get('etag');
    if (!etag) throw new ConnectorError('bad-body', 'no ETag for an uploaded part');
    etags.push(etag);
  }
  await callApi(
    `${o.apiBase}/rest/videos?action=finalizeUpload`,
    {
      headers: restHeaders(accessToken),
      json: {
        finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken ?? '', uploadedPartIds: etags },
      },
    },
    signal,
  );
  await untilAvailable(o, accessToken, value.video, signal);
  return value.video;
}

/** PROCESSING → AVAILABLE (or PROCESSING_FAILED); a post may only reference an available video. */
async function untilAvailable(o: LinkedinContext, accessToken: string, urn: string, signal?: AbortSignal) {
  for (let waited = 0; ; ) {
    const { body: video } = await callApi(
      `${o.apiBase}/rest/videos/${encodeURIComponent(urn)}`,
      { headers: restHeaders(accessToken) },
      signal,
    );
    if (video.status === 'AVAILABLE') return;
    if (video.status === 'PROCESSING_FAILED') {
      throw new ConnectorError(
        'bad-body',
        `LinkedIn could not process the video: ${String(video.processingFailureReason ?? 'failed')}`,
      );
    }
    if (waited >= PROCESSING_WAIT_SECONDS)
      throw new ConnectorError('retry', 'LinkedIn is still processing the video', 60);
    await pause(2, signal);
    waited += 2;
  }
}

async function authenticate(o: LinkedinContext, input: AuthCallback): Promise<Authenticated> {
  const tokens = await o.oauth.exchangeCode(input);
  const me = await callApi(`${o.apiBase}/v2/userinfo`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  const sub = me.body.sub;
  if (typeof sub !== 'string' || !sub) throw new ConnectorError('bad-body', 'no member id in /v2/userinfo');
  const name = typeof me.body.name === 'string' ? me.body.name : sub;
  return { tokens, profile: { externalId: sub, username: name, followerCount: null } };
}

async function fetchProfile(o: LinkedinContext, accessToken: string): Promise<{ followerCount: number }> {
  const { body } = await callApi(`${o.apiBase}/rest/memberFollowersCount?q=me`, {
    headers: restHeaders(accessToken),
  });
  const first = ((body.elements ?? []) as Array<Record<string, unknown>>)[0];
  const followerCount = countOf(first?.memberFollowersCount);
  if (followerCount === null) throw new ConnectorError('bad-body', 'no memberFollowersCount in the reply');
  return { followerCount };
}

async function fetchPostMetrics(
  o: LinkedinContext,
  accessToken: string,
  externalIds: readonly string[],
): Promise<Map<string, PostMetrics>> {
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
}

async function post(o: LinkedinContext, accessToken: string, input: PostInput, signal?: AbortSignal) {
  // The files are uploaded and attached; only a caller that gives no files (URLs alone) has them linked.
  checkMedia(input.media);
  const author = `urn:li:person:${input.authorId}`;
  const ids: string[] = [];
  for (const media of input.media) {
    ids.push(
      media.kind === 'video'
        ? await uploadVideo(o, accessToken, author, media, signal)
        : await uploadImage(o, accessToken, author, media, signal),
    );
  }
  const commentary = ids.length > 0 ? input.message : [input.message, ...input.mediaUrls].join('\n');
  const content =
    ids.length === 0
      ? {}
      : ids.length === 1
        ? { content: { media: { id: ids[0] } } }
        : { content: { multiImage: { images: ids.map((id) => ({ id })) } } };
  const { headers } = await callApi(
    `${o.apiBase}/rest/posts`,
    {
      headers: restHeaders(accessToken),
      json: {
        author,
        commentary,
        ...content,
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
}
