import { randomUUID } from 'node:crypto';
import { ENHANCOR_KINDS, type EnhancorKind } from '../../../common/api/generation.constants.ts';
import { IMAGE_ENHANCE_DEFAULTS, VIDEO_ENHANCE } from '../../../common/api/uploads.constants.ts';
import type { EnhanceQueuedReply, EnhancorQueueBody, TopazEnhanceBody } from '../../../common/api/upscale.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, notFound, paymentRequired } from '../../platform/errors.ts';
import {
  extensionOf,
  type InputKind,
  ownedMediaObject,
  parseMediaRef,
  resolveMediaInput,
} from '../../platform/media/inputs.ts';
import { storageLimitBytes } from '../../platform/media/quota.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';
import { type AssetRow, getAsset, updateAsset } from '../assets/service.ts';
import { MB, uploadLimitMb } from '../uploads/sniff.ts';
import { planVideoEnhancement } from './catalogue.ts';
import { UPSCALE_IMAGE_KIND, UPSCALE_VIDEO_KIND, VIDEO_UPSCALE_SERVICE } from './tasks.ts';

/** Who asks: the id, and the balance read with the session (a cheap 402 before any fetch). */
interface Requester {
  id: string;
  credits: number;
}

const IMAGE_ESTIMATE_SECONDS = 15;

function isEnhancorKind(value: string): value is EnhancorKind {
  return (ENHANCOR_KINDS as readonly string[]).includes(value);
}

interface PreparedSource {
  key: string;
  /** Kept as `enhanced_from`: the media route, or the public URL as given. */
  url: string;
  /** A copy stored for this request (a data URI or a fetched URL), removed if the request is refused. */
  copied: boolean;
}

/**
 * The media to enhance, checked before any credit is reserved: the user's own (or public) stored
 * media by its URL, including persona image paths; otherwise a `data:` URI or a public http(s) URL
 * (fetched with safeFetch: private addresses refused), copied into storage as `enhancement_source`
 * (temporary). Another user's media answers 404; the wrong kind 400.
 */
async function prepareSource(ctx: AppContext, userId: string, ref: string, kind: InputKind): Promise<PreparedSource> {
  const parsed = parseMediaRef(ctx.config, ref);
  const wrongKind = () =>
    new AppError(
      400,
      'unsupported_type',
      kind === 'image' ? MESSAGES.assets.enhanceImageOnly : MESSAGES.assets.enhanceVideoOnly,
    );
  if (parsed.kind === 'stored') {
    const row = await ownedMediaObject(ctx, userId, parsed.key).catch((error: unknown) => {
      throw error instanceof AppError && error.status === 404 ? notFound(MESSAGES.assets.notYourMedia) : error;
    });
    if (!row.contentType.startsWith(`${kind}/`)) throw wrongKind();
    return { key: row.key, url: mediaUrl(row.key, row.contentType, row.storageClass), copied: false };
  }
  const input = await resolveMediaInput(ctx, userId, ref, {
    maxBytes: uploadLimitMb(ctx.config, kind) * MB,
    allowed: [kind],
  });
  const stored = await new MediaStore(ctx).put({
    body: input.data,
    contentType: input.mimeType,
    ext: extensionOf(input.mimeType),
    storageClass: 'enhancement_source',
    userId,
    source: 'enhancement-source',
    quotaBytes: storageLimitBytes(ctx.config),
  });
  return { key: stored.key, url: parsed.kind === 'remote' ? parsed.url : stored.url, copied: true };
}

function assertCanPay(user: Requester, price: number): void {
  if (user.credits < price) {
    throw paymentRequired(MESSAGES.credits.insufficient, { required: price, balance: user.credits });
  }
}

interface QueueInput {
  kind: string;
  price: number;
  generationType: string;
  description: string;
  estimatedSeconds: number;
  /** `enhancor_request_id` or `topaz_request_id`: where the asset records the request. */
  requestIdKey: string;
  asset: AssetRow | null;
  source: PreparedSource;
  input: Record<string, unknown>;
}

const TRACKED_KEYS = ['enhancement_status', 'enhancement_error', 'replaced_by_enhancement'] as const;

/**
 * Marks the original asset `enhancement_status: 'processing'` (and not yet replaced, so a client
 * polling for `replaced_by_enhancement` waits for this run), then reserves the credits and queues
 * the task in one step (402 with nothing spent when the balance is short). If queueing fails, the
 * asset's previous values come back and a copied source is removed.
 */
async function queue(ctx: AppContext, user: Requester, q: QueueInput): Promise<EnhanceQueuedReply> {
  const taskId = randomUUID();
  const previouslyReplaced = q.asset?.metadata.replaced_by_enhancement === true;
  const previous: Record<string, unknown> = {};
  if (q.asset) {
    for (const key of [...TRACKED_KEYS, q.requestIdKey]) previous[key] = q.asset.metadata[key] ?? null;
    await updateAsset(ctx, user.id, q.asset.id, {
      metadata: {
        enhancement_status: 'processing',
        enhancement_error: null,
        replaced_by_enhancement: false,
        [q.requestIdKey]: taskId,
      },
    });
  }
  try {
    await ctx.jobs.createTask({
      id: taskId,
      userId: user.id,
      kind: q.kind,
      input: {
        ...q.input,
        sourceKey: q.source.key,
        sourceUrl: q.source.url,
        ...(q.asset ? { originalAssetId: q.asset.id, previouslyReplaced } : {}),
      },
      credits: q.price,
      estimatedSeconds: q.estimatedSeconds,
      description: q.description,
      generationType: q.generationType,
    });
  } catch (error) {
    if (q.asset) {
      await updateAsset(ctx, user.id, q.asset.id, { metadata: previous }).catch((restoreError: unknown) =>
        ctx.log.warn(
          { err: restoreError, assetId: q.asset?.id },
          'could not restore the asset after a refused enhancement',
        ),
      );
    }
    if (q.source.copied) await new MediaStore(ctx).delete(q.source.key).catch(() => undefined);
    throw error;
  }
  return {
    success: true,
    requestId: taskId,
    status: 'queued',
    credits_reserved: q.price,
    estimated_seconds: q.estimatedSeconds,
  };
}

/**
 * POST /api/proxy/enhancor/{kind}/queue: an image enhancement towards 4K with one of the four
 * services (portrait-upscaler defaults to mode 'fast', detailed to enhancementLevel 0.8). Reserves
 * `imageUpscale` from the price list of the engine serving the service.
 */
export async function queueImageEnhancement(
  ctx: AppContext,
  user: Requester,
  kind: string,
  body: EnhancorQueueBody,
): Promise<EnhanceQueuedReply> {
  if (!isEnhancorKind(kind)) throw notFound();
  ctx.engines.upscale(kind);
  const price = ctx.engines.prices('upscale', kind).imageUpscale;
  assertCanPay(user, price);
  const asset = body.original_asset_id ? await getAsset(ctx, user.id, body.original_asset_id) : null;
  const source = await prepareSource(ctx, user.id, body.img_url, 'image');
  const defaults = IMAGE_ENHANCE_DEFAULTS[kind];
  const mode = body.mode ?? defaults.mode;
  const enhancementLevel = body.enhancementLevel ?? defaults.enhancementLevel;
  return queue(ctx, user, {
    kind: UPSCALE_IMAGE_KIND,
    price,
    generationType: 'image_upscale',
    description: `Image enhancement (${kind})`,
    estimatedSeconds: IMAGE_ESTIMATE_SECONDS,
    requestIdKey: 'enhancor_request_id',
    asset,
    source,
    input: {
      service: kind,
      ...(mode !== undefined ? { mode } : {}),
      ...(enhancementLevel !== undefined ? { enhancementLevel } : {}),
    },
  });
}

/**
 * POST /api/topaz/enhance: a video enhancement with a catalogue model (or 'upscale_4k'): scale
 * 2/3/4, frame rate 24/30/60/120, quality low/medium/high. Reserves `videoEnhancement` (vendor 50) from the
 * price list of the engine serving it.
 * Without `videoUrl`, the original asset's own file is enhanced.
 */
export async function queueVideoEnhancement(
  ctx: AppContext,
  user: Requester,
  body: TopazEnhanceBody,
): Promise<EnhanceQueuedReply> {
  const plan = planVideoEnhancement(body);
  ctx.engines.upscale(VIDEO_UPSCALE_SERVICE);
  const price = ctx.engines.prices('upscale', VIDEO_UPSCALE_SERVICE).videoEnhancement;
  assertCanPay(user, price);
  const assetId = body.options?.original_asset_id;
  const asset = assetId ? await getAsset(ctx, user.id, assetId) : null;
  const ref = body.videoUrl ?? asset?.url;
  if (!ref) throw badRequest(MESSAGES.remote.invalidUrl);
  const source = await prepareSource(ctx, user.id, ref, 'video');
  return queue(ctx, user, {
    kind: UPSCALE_VIDEO_KIND,
    price,
    generationType: 'video_enhancement',
    description: `Video enhancement (${plan.model} ${plan.option})`,
    estimatedSeconds: VIDEO_ENHANCE.estimatedSeconds,
    requestIdKey: 'topaz_request_id',
    asset,
    source,
    input: { ...plan },
  });
}
