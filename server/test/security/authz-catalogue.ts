// Every operation of the OpenAPI document, classified for the authorisation suite (authorization.test.ts).
// A route that is not listed here fails the suite: add it with its class (and a reason when public).

export type Role = 'creator' | 'brand' | 'admin';

/** Ids of resources owned by user A (creator A or brand A), made by authz-fixtures.ts. */
export interface Fixture {
  /** Creator A's session id. */
  session: string;
  /** Storage key of creator A's private image. */
  mediaKey: string;
  /** URL of creator A's private image. */
  mediaUrl: string;
  /** URL of an image the caller (creator B) owns, for bodies that need one. */
  callerImageUrl: string;
  upload: string;
  task: string;
  asset: string;
  editorSession: string;
  character: string;
  persona: string;
  /** Brand A's draft campaign. */
  campaign: string;
  /** Brand A's running campaign (visible to other brands and approved creators), with creator A's collaboration. */
  openCampaign: string;
  /** Creator A's pending application to another open campaign of brand A. */
  application: string;
  /** Creator A's active collaboration on brand A's running campaign. */
  collaboration: string;
  creatorBankAccount: string;
  brandBankAccount: string;
  socialPost: string;
  /** Creator A's pending manual payout. */
  payout: string;
  creatorUserId: string;
  brandUserId: string;
}

export interface SampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** A request whose body names user A's resource (a media URL, an asset id …): refused with 404 or 400. */
interface ReferenceProbe {
  what: string;
  /** The role of the other user who sends it (default: creator). */
  as?: Role;
  request: (fx: Fixture) => SampleRequest;
}

export interface RouteRule {
  /** Who may call it: anyone, any signed-in user, or these roles (others get 403). */
  access: 'public' | 'signed-in' | readonly Role[];
  /** Why a route needs no session, or why another user may read the resource. */
  why?: string;
  /** The resource the route addresses (another user's → 404); its owner is creator A or brand A. */
  resource?: keyof Fixture;
  /** The role of the other user who tries the resource (default: creator). */
  as?: Role;
  /** The owner: creator A or brand A (default: the role in `as`). */
  owner?: Role;
  /** The resource is legitimately visible to other users (the 404 check does not apply). */
  visibleToOthers?: boolean;
  /** Pending (unapproved) creators get 403. */
  approvedOnly?: boolean;
  /** A syntactically valid request addressing user A's resource. */
  request?: (fx: Fixture) => SampleRequest;
  /** Requests referring to user A's resources in the body. */
  references?: ReferenceProbe[];
  /**
   * What brand B gets for brand A's running campaign (fx.openCampaign), walked by cross-tenant.int.test.ts:
   * 'public-card' — 200 with the pool's card only (no budget, held amount, plan, materials or collaborations);
   * 'not-found' — 404 like any other user's resource. Every route under /api/campaigns/{id} must say.
   */
  otherBrandLive?: 'public-card' | 'not-found';
}

const refs = (...probes: [what: string, body: (fx: Fixture) => unknown, as?: Role][]): RouteRule => ({
  access: 'signed-in',
  references: probes.map(([what, body, as]) => ({ what, as, request: (fx) => ({ body: body(fx) }) })),
});
const pub = (why: string): RouteRule => ({ access: 'public', why });
const signedIn: RouteRule = { access: 'signed-in' };
const only = (...roles: Role[]): RouteRule => ({ access: roles });
const owned = (
  resource: keyof Fixture,
  request: (fx: Fixture) => SampleRequest,
  extra: Partial<RouteRule> = {},
): RouteRule => ({ access: 'signed-in', resource, request, ...extra });

const byId = (resource: keyof Fixture, body?: unknown, extra: Partial<RouteRule> = {}) =>
  owned(resource, (fx) => ({ params: { id: fx[resource] }, body }), extra);
const media = owned('mediaKey', (fx) => ({ params: { '*': fx.mediaKey } }));
const taskBody = owned('task', (fx) => ({ body: { taskId: fx.task } }));

const campaignPlan = {
  name: 'Spring',
  objective: 'Awareness',
  targetAudience: { ageMin: 18, ageMax: 35, description: '' },
  budget: 100,
  duration: 7,
  platforms: ['instagram'],
  contentTypes: ['image'],
  kpis: [],
};
const newCampaign = {
  title: 'Spring',
  objective: 'Awareness',
  budget: 100,
  platforms: ['instagram'],
  contentTypes: ['image'],
  status: 'draft',
};
const scheduled = {
  message: 'Soon',
  platforms: ['instagram'],
  mode: 'materials',
  scheduled_time: '2099-01-01T10:00:00.000Z',
};
const step = (referenceImage: string) => ({
  id: 's1',
  prompt: 'Add a hat',
  regionMask: { x: 0, y: 0, width: 4, height: 4 },
  referenceImage,
});
const iban = { accountHolderName: 'Test User', iban: 'DE89370400440532013000', bankName: 'Bank' };

export const ROUTE_CATALOGUE: Record<string, RouteRule> = {
  'GET /healthz': pub('detailed health report for operators (no data)'),
  'GET /livez': pub('liveness probe for orchestrators'),
  'GET /readyz': pub('readiness probe for load balancers'),
  'GET /metrics': pub(
    'Prometheus scrapes with its own bearer METRICS_TOKEN, not a session (401 without it); 404 when METRICS_TOKEN is unset',
  ),
  'POST /api/auth/register': pub('starts a sign-up: mails a code (same answer for taken emails), creates nothing'),
  'POST /api/auth/login': pub('signs in'),
  'POST /api/auth/login/two-factor': pub('second sign-in step, authorised by the single-use challenge token'),
  'POST /api/auth/logout': pub('ends whatever session the request carries; harmless without one'),
  'GET /api/auth/me': signedIn,
  'POST /api/auth/resend-verification': pub('resends the code to an email address before sign-in (rate-limited)'),
  'POST /api/auth/verify-code': pub(
    'with an email: finishes a sign-up, authorised by the code mailed to it; without: needs a session (401)',
  ),
  'POST /api/auth/password-reset/request': pub(
    'mails a reset code to an address before sign-in; same answer for every email (rate-limited)',
  ),
  'POST /api/auth/password-reset/confirm': pub('sets a new password, authorised by the single-use mailed code'),
  'GET /api/auth/sessions': signedIn,
  'DELETE /api/auth/sessions/{id}': byId('session'),
  'DELETE /api/users/sessions/revoke-all': signedIn,
  'GET /api/creators/profile': only('creator'),
  'PATCH /api/creators/profile': { ...only('creator'), request: () => ({ body: {} }) },
  'GET /api/brands/profile': only('brand'),
  'PATCH /api/brands/profile': {
    ...only('brand'),
    request: () => ({ body: {} }),
    references: [{ what: 'logoUrl', as: 'brand', request: (fx) => ({ body: { logoUrl: fx.mediaUrl } }) }],
  },
  'POST /api/brands/logo': {
    ...only('brand'),
    request: () => ({ body: {} }),
    references: [{ what: 'logoUrl', as: 'brand', request: (fx) => ({ body: { logoUrl: fx.mediaUrl } }) }],
  },
  'PUT /api/users/profile': signedIn,
  'POST /api/users/avatar': refs(['avatarUrl', (fx) => ({ avatarUrl: fx.mediaUrl })]),
  'GET /api/users/settings': signedIn,
  'PUT /api/users/settings': signedIn,
  'GET /api/creators/bank-accounts': only('creator'),
  'POST /api/creators/bank-accounts': { ...only('creator'), request: () => ({ body: iban }) },
  'PATCH /api/creators/bank-accounts': {
    ...owned('creatorBankAccount', (fx) => ({ query: { id: fx.creatorBankAccount }, body: { is_primary: true } })),
    access: ['creator'],
  },
  'DELETE /api/creators/bank-accounts': {
    ...owned('creatorBankAccount', (fx) => ({ query: { id: fx.creatorBankAccount } })),
    access: ['creator'],
  },
  'GET /api/brands/bank-accounts': only('brand'),
  'POST /api/brands/bank-accounts': { ...only('brand'), request: () => ({ body: iban }) },
  'PATCH /api/brands/bank-accounts': {
    ...owned('brandBankAccount', (fx) => ({ query: { id: fx.brandBankAccount }, body: { is_primary: true } })),
    access: ['brand'],
    as: 'brand',
  },
  'DELETE /api/brands/bank-accounts': {
    ...owned('brandBankAccount', (fx) => ({ query: { id: fx.brandBankAccount } })),
    access: ['brand'],
    as: 'brand',
  },
  'DELETE /api/users/delete-account': signedIn,
  'GET /api/users/security': signedIn,
  'POST /api/users/security': signedIn,
  'POST /api/users/two-factor/setup': signedIn,
  'POST /api/users/two-factor/enable': signedIn,
  'POST /api/users/two-factor/disable': signedIn,
  'GET /api/images/{*}': media,
  'GET /api/videos/{*}': media,
  'GET /api/audio/{*}': media,
  'GET /api/personas/image/{*}': media,
  'GET /api/personas/video/{*}': media,
  'POST /api/upload': signedIn,
  'GET /api/upload/{id}': byId('upload'),
  'GET /api/account/storage': signedIn,
  'GET /api/tasks': signedIn,
  /** The progress channel (SSE): only the caller's own tasks are ever sent (events.int.test.ts). */
  'GET /api/tasks/events': signedIn,
  'GET /api/tasks/{id}': byId('task'),
  'POST /api/ai/generate/image': refs([
    'referenceImages',
    (fx) => ({ prompt: 'A cat', referenceImages: [fx.mediaUrl] }),
  ]),
  'POST /api/ai/generate/audio': signedIn,
  'POST /api/ai/generate/video': refs(['inputImage', (fx) => ({ prompt: 'A cat', inputImage: fx.mediaUrl })]),
  'POST /api/proxy/google/veo/status': taskBody,
  'POST /api/ai/generate/video/status': taskBody,
  'POST /api/proxy/seedream/status': taskBody,
  'POST /api/ai/status': taskBody,
  'GET /api/proxy/runway/tasks/{taskId}': owned('task', (fx) => ({ params: { taskId: fx.task } })),
  'POST /api/ai/image-agent': signedIn,
  'GET /api/ai/assets': signedIn,
  'GET /api/ai/engines': signedIn,
  'POST /api/ai/assets': refs(['url', (fx) => ({ type: 'image', url: fx.mediaUrl })]),
  'GET /api/ai/assets/{id}': byId('asset'),
  'DELETE /api/ai/assets/{id}': byId('asset'),
  'POST /api/upload/base64-to-url': signedIn,
  'POST /api/temp-upload': signedIn,
  'GET /api/topaz/models': signedIn,
  'POST /api/topaz/enhance': refs(
    ['videoUrl', (fx) => ({ videoUrl: fx.mediaUrl })],
    ['options.original_asset_id', (fx) => ({ options: { original_asset_id: fx.asset } })],
  ),
  'POST /api/proxy/enhancor/{kind}/queue': {
    ...refs(
      ['img_url', (fx) => ({ img_url: fx.mediaUrl })],
      ['original_asset_id', (fx) => ({ img_url: fx.callerImageUrl, original_asset_id: fx.asset })],
    ),
    request: () => ({ params: { kind: 'image-upscaler' } }),
  },
  'POST /api/ai/generate-video-sequence': refs(['imageUrl', (fx) => ({ prompt: 'A cat', imageUrl: fx.mediaUrl })]),
  'POST /api/ai/movie-agent': signedIn,
  'POST /api/ai/compile-master-video': refs([
    'sequenceItems.videoUrl',
    (fx) => ({ sequenceItems: [{ id: 'a', videoUrl: fx.mediaUrl }] }),
  ]),
  'POST /api/nanobana/edit-image': refs(['imageBuffer', (fx) => ({ prompt: 'Brighter', imageBuffer: fx.mediaUrl })]),
  'POST /api/nanobana/multi-image-composition': refs([
    'imageBuffers',
    (fx) => ({ prompt: 'Mix', imageBuffers: [fx.callerImageUrl, fx.mediaUrl] }),
  ]),
  'POST /api/nanobana/advanced-composition': refs([
    'imageBuffers',
    (fx) => ({ prompt: 'Mix', imageBuffers: [fx.callerImageUrl, fx.mediaUrl] }),
  ]),
  'POST /api/nanobana/generate-text-to-image': signedIn,
  'POST /api/ai/generate/multi-composition': refs(
    ['baseImage', (fx) => ({ baseImage: fx.mediaUrl, compositionSteps: [step(fx.callerImageUrl)] })],
    [
      'compositionSteps.referenceImage',
      (fx) => ({ baseImage: fx.callerImageUrl, compositionSteps: [step(fx.mediaUrl)] }),
    ],
  ),
  'GET /api/editor-sessions': signedIn,
  'POST /api/editor-sessions': signedIn,
  'GET /api/editor-sessions/{id}': byId('editorSession'),
  'PUT /api/editor-sessions/{id}': byId('editorSession', { name: 'Renamed' }),
  'DELETE /api/editor-sessions/{id}': byId('editorSession'),
  // The caller's own autosave, addressed by tool: there is no other user's to reach.
  'GET /api/editor-sessions/autosave/{component_type}': signedIn,
  'PUT /api/editor-sessions/autosave/{component_type}': signedIn,
  'DELETE /api/editor-sessions/autosave/{component_type}': signedIn,
  'GET /api/characters': signedIn,
  'POST /api/characters': refs(
    ['images', (fx) => ({ name: 'Mine', images: [fx.mediaUrl] })],
    ['imageUrl', (fx) => ({ name: 'Mine', imageUrl: fx.mediaUrl })],
  ),
  'PUT /api/characters/{id}': byId('character', { name: 'Renamed' }),
  'DELETE /api/characters/{id}': byId('character'),
  'POST /api/ai/generate': refs(
    ['characterImages', (fx) => ({ prompt: 'A cat', characterImages: [fx.mediaUrl] })],
    ['characterIds', (fx) => ({ prompt: 'A cat', characterIds: [fx.character] })],
  ),
  'POST /api/ai/generate/multi-reference': refs([
    'referenceImages.url',
    (fx) => ({ prompt: 'A cat', referenceImages: [{ url: fx.mediaUrl }] }),
  ]),
  'POST /api/ai/generate/inpaint': refs([
    'baseImage',
    (fx) => ({ prompt: 'A hat', baseImage: fx.mediaUrl, maskImage: fx.callerImageUrl }),
  ]),
  'POST /api/ai/film-agent': signedIn,
  'POST /api/chat/genpro': pub(
    'the spec’s chat call carries no auth header: help answers for all, account data only with a session',
  ),
  'GET /api/help/{slug}': pub('help pages are public documentation'),
  'GET /api/payment/packages': signedIn,
  'POST /api/payment/topup': signedIn,
  'GET /api/payment/subscription/status': signedIn,
  'POST /api/payment/subscription/cancel': signedIn,
  'POST /api/payment/subscription/checkout': signedIn,
  'GET /api/credits/history': signedIn,
  'GET /api/brands/wallet': only('brand'),
  'POST /api/brands/wallet/topup': only('brand'),
  'GET /api/creators/earnings': only('creator'),
  'GET /api/creators/payouts': only('creator'),
  'POST /api/creators/payouts': { ...only('creator'), request: () => ({ body: { amount: 10 } }) },
  'POST /api/creators/payouts/{id}/cancel': byId('payout', undefined, { access: ['creator'] }),
  'GET /api/creators/stripe-connect': only('creator'),
  'POST /api/creators/stripe-connect/onboarding': only('creator'),
  'POST /api/creators/stripe-connect/refresh': only('creator'),
  'POST /api/payment/webhook': pub('called by the payment provider; authorised by its signature header'),
  'GET /api/personas': signedIn,
  'POST /api/personas': refs(
    ['custom_images', (fx) => ({ name: 'Mine', description: 'Mine', custom_images: [fx.mediaUrl] })],
    ['avatar_url', (fx) => ({ name: 'Mine', description: 'Mine', avatar_url: fx.mediaUrl })],
  ),
  'GET /api/personas/{id}': byId('persona'),
  'DELETE /api/personas/{id}': byId('persona'),
  'POST /api/personas/{id}/update-images': byId('persona', { ai_generated_images: {} }),
  'POST /api/personas/{id}/regenerate': byId('persona', { imageType: 'portrait' }),
  'POST /api/personas/{id}/video': byId('persona', { prompt: 'Wave', imageType: 'portrait' }),
  'POST /api/personas/{id}/ugc-video': owned('persona', (fx) => ({
    params: { id: fx.persona },
    body: { script: 'Hello', product_images: [fx.callerImageUrl] },
  })),
  'POST /api/personas/{id}/image': byId('persona', { prompt: 'Smile' }),
  'GET /api/campaign/workspace': signedIn,
  'POST /api/campaign/workspace': {
    ...owned('persona', (fx) => ({ body: { assetId: fx.persona, assetType: 'persona' } })),
    references: [{ what: 'assetId (video)', request: (fx) => ({ body: { assetId: fx.asset, assetType: 'video' } }) }],
  },
  'DELETE /api/campaign/workspace': signedIn,
  'POST /api/campaigns/plan': { ...only('brand'), request: () => ({ body: campaignPlan }) },
  'POST /api/campaigns': {
    ...only('brand'),
    request: () => ({ body: newCampaign }),
    references: [
      { what: 'ai_asset_ids', as: 'brand', request: (fx) => ({ body: { ...newCampaign, ai_asset_ids: [fx.asset] } }) },
      {
        what: 'sessionMaterials',
        as: 'brand',
        request: (fx) => ({ body: { ...newCampaign, sessionMaterials: [{ url: fx.mediaUrl, type: 'image' }] } }),
      },
    ],
  },
  'GET /api/campaigns': { ...signedIn, approvedOnly: true },
  'GET /api/campaigns/{id}': byId('campaign', undefined, { as: 'brand', otherBrandLive: 'public-card' }),
  'PATCH /api/campaigns/{id}': byId(
    'campaign',
    { title: 'Renamed' },
    { access: ['brand'], as: 'brand', otherBrandLive: 'not-found' },
  ),
  'DELETE /api/campaigns/{id}': byId('campaign', undefined, {
    access: ['brand'],
    as: 'brand',
    otherBrandLive: 'not-found',
  }),
  'GET /api/campaigns/{id}/collaborations': byId('campaign', undefined, { as: 'brand', otherBrandLive: 'not-found' }),
  'GET /api/campaigns/{id}/assets': byId('campaign', undefined, { as: 'brand', otherBrandLive: 'not-found' }),
  'POST /api/campaigns/{id}/applications': byId(
    'campaign',
    { message: 'Pick me', rate: 10 },
    { access: ['creator'], approvedOnly: true, owner: 'brand' },
  ),
  'GET /api/campaigns/{id}/applications': byId('campaign', undefined, { as: 'brand', otherBrandLive: 'not-found' }),
  'GET /api/applications/my': signedIn,
  'POST /api/applications/{id}/accept': byId('application', undefined, { as: 'brand' }),
  'POST /api/applications/{id}/decline': byId('application', undefined, { as: 'brand' }),
  'POST /api/applications/{id}/withdraw': byId('application'),
  'GET /api/collaborations/my-active': signedIn,
  'POST /api/collaborations/{id}/complete': byId('collaboration', undefined, { as: 'brand' }),
  'GET /api/creators': { ...signedIn, approvedOnly: true },
  'GET /api/brands': { ...signedIn, approvedOnly: true },
  'GET /api/creators/{id}': {
    ...owned('creatorUserId', (fx) => ({ params: { id: fx.creatorUserId } })),
    visibleToOthers: true,
    why: 'public creator profiles are shown to any signed-in user (the directory list needs approval)',
  },
  'GET /api/brands/{id}': {
    ...owned('brandUserId', (fx) => ({ params: { id: fx.brandUserId } })),
    as: 'brand',
    visibleToOthers: true,
    why: 'public brand profiles are shown to any signed-in user (the directory list needs approval)',
  },
  'GET /api/admin/creators': only('admin'),
  'GET /api/admin/brands': only('admin'),
  'POST /api/admin/users/approve': only('admin'),
  'POST /api/admin/brands/approve': only('admin'),
  'DELETE /api/admin/users/delete': only('admin'),
  'GET /api/admin/audit-log': only('admin'),
  'GET /api/admin/media/{*}': { ...only('admin'), request: (fx) => ({ params: { '*': fx.mediaKey } }) },
  'GET /api/admin/storage': only('admin'),
  'GET /api/admin/engines': only('admin'),
  'GET /api/admin/workers': only('admin'),
  'GET /api/admin/payouts': only('admin'),
  'POST /api/admin/payouts/{id}/mark-paid': { ...only('admin'), request: () => ({ body: { reference: 'SEPA-1' } }) },
  'POST /api/admin/payouts/{id}/mark-failed': { ...only('admin'), request: () => ({ body: { reason: 'Bounced' } }) },
  'POST /api/admin/payouts/{id}/retry-transfer': only('admin'),
  'PUT /api/admin/creators/{id}/stripe-account': {
    ...only('admin'),
    request: () => ({ body: { stripeAccountId: 'acct_1Test' } }),
  },
  'GET /api/social/accounts': signedIn,
  'DELETE /api/social/accounts': signedIn,
  'POST /api/social/connect/{platformId}': { ...signedIn, request: () => ({ params: { platformId: 'instagram' } }) },
  'GET /api/social/oauth/{id}': pub('OAuth callback opened by the provider; the single-use state names the user'),
  'POST /api/social/oauth/{id}/choose': pub(
    'the Page chosen after a Facebook login; the sealed single-use choice and the connect cookie of the browser that started it name the user',
  ),
  'POST /api/social/publish': refs(
    ['media_urls', (fx) => ({ message: 'Hi', platforms: ['instagram'], mode: 'materials', media_urls: [fx.mediaUrl] })],
    [
      'selected_materials',
      (fx) => ({ message: 'Hi', platforms: ['instagram'], mode: 'materials', selected_materials: [fx.asset] }),
    ],
    ['collaboration_id', (fx) => ({ message: 'Hi', platforms: ['instagram'], collaboration_id: fx.collaboration })],
  ),
  'POST /api/social/scheduled-posts': refs(
    ['media_urls', (fx) => ({ ...scheduled, media_urls: [fx.mediaUrl] })],
    ['collaboration_id', (fx) => ({ ...scheduled, collaboration_id: fx.collaboration })],
  ),
  'GET /api/social/scheduled-posts': signedIn,
  'PUT /api/social/scheduled-posts': owned('socialPost', (fx) => ({ body: { id: fx.socialPost, message: 'Edited' } })),
  'DELETE /api/social/scheduled-posts': owned('socialPost', (fx) => ({ query: { id: fx.socialPost } })),
  'POST /api/social/scheduled-posts/{id}/publish-again': owned('socialPost', (fx) => ({
    params: { id: fx.socialPost },
  })),
  'GET /api/social/scheduled-posts/calendar': signedIn,
  'POST /api/social/scheduled-posts/calendar': signedIn,
  'GET /dev/mail.json': pub('local outbox of the embedded mail mode (development); not registered with real mail'),
};
