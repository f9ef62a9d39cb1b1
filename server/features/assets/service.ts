import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import {
  ASSET_TYPES,
  type Asset,
  type AssetSort,
  type AssetType,
  type CreateAssetBody,
} from '../../../common/api/assets.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { assets } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { ownedMediaObject, parseMediaRef } from '../../platform/media/inputs.ts';
import { withLocalFile } from '../../platform/media/local-file.ts';
import { grabFrame, probeMedia, webpThumbnail } from '../../platform/media/probe.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';
import { forgetAssetLists } from './list-cache.ts';

export type AssetRow = typeof assets.$inferSelect;
type AssetStatus = AssetRow['status'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The spec's Asset as the clients read it; `thumbnail_url` is the WebP thumbnail's media URL. */
export function toAssetDto(row: AssetRow): Asset {
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    prompt: row.prompt,
    metadata: row.metadata,
    status: row.status,
    service: row.service,
    model: row.model,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    thumbnail_url: row.thumbnailKey ? mediaUrl(row.thumbnailKey, 'image/webp') : null,
    credits_used: row.creditsUsed,
    persona_id: row.personaId,
  };
}

export interface CreateAssetInput {
  userId: string;
  type: AssetType;
  /** Storage key of the file; `url` defaults to its media URL. */
  key: string | null;
  /** Content type of `key`, used to build the URL when `url` is not given. */
  contentType?: string;
  url?: string;
  thumbnailKey?: string | null;
  prompt?: string | null;
  metadata?: Record<string, unknown>;
  status?: AssetStatus;
  service?: string | null;
  model?: string | null;
  creditsUsed?: number;
  taskId?: string | null;
  personaId?: string | null;
  id?: string;
}

/** Inserts an asset row (the caller has checked the file is the user's). */
export async function createAsset(ctx: Pick<AppContext, 'db' | 'clock'>, input: CreateAssetInput): Promise<AssetRow> {
  const url = input.url ?? (input.key ? mediaUrl(input.key, input.contentType ?? 'application/octet-stream') : null);
  if (!url) throw new Error('createAsset needs a key or a url');
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(assets)
    .values({
      ...(input.id ? { id: input.id } : {}),
      userId: input.userId,
      personaId: input.personaId ?? null,
      type: input.type,
      key: input.key,
      url,
      thumbnailKey: input.thumbnailKey ?? null,
      prompt: input.prompt ?? null,
      metadata: input.metadata ?? {},
      status: input.status ?? 'completed',
      service: input.service ?? null,
      model: input.model ?? null,
      creditsUsed: input.creditsUsed ?? 0,
      taskId: input.taskId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  forgetAssetLists(ctx, input.userId);
  return row;
}

/** The user's asset; 404 for an unknown id or another user's asset. */
export async function getAsset(ctx: AppContext, userId: string, id: string): Promise<AssetRow> {
  if (!UUID.test(id)) throw notFound();
  const [row] = await ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.userId, userId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * The WebP thumbnail keys of stored media keys that belong to an asset (a file without an asset, or an asset
 * without a thumbnail, is left out). The caller has already checked the viewer may see those files.
 */
export async function thumbnailKeysOf(
  ctx: Pick<AppContext, 'db'>,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(keys)];
  if (unique.length === 0) return out;
  const rows = await ctx.db
    .select({ key: assets.key, thumbnailKey: assets.thumbnailKey })
    .from(assets)
    .where(inArray(assets.key, unique));
  for (const row of rows) if (row.key && row.thumbnailKey) out.set(row.key, row.thumbnailKey);
  return out;
}

/** Assets a task produced, oldest first (lets a retried task find what an earlier attempt saved). */
export async function assetsOfTask(ctx: AppContext, userId: string, taskId: string): Promise<AssetRow[]> {
  return ctx.db
    .select()
    .from(assets)
    .where(and(eq(assets.userId, userId), eq(assets.taskId, taskId)))
    .orderBy(assets.createdAt, assets.id);
}

/** 'image', 'enhancement|video|video_enhancement' or 'image,video' → the types; 400 for an unknown one. */
export function parseAssetTypes(value: string | undefined): AssetType[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const types = [
    ...new Set(
      value
        .split(/[|,]/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  for (const type of types) {
    if (!(ASSET_TYPES as readonly string[]).includes(type)) throw badRequest(MESSAGES.assets.unknownType(type));
  }
  return types as AssetType[];
}

export interface ListAssetsOptions {
  limit: number;
  offset: number;
  types?: readonly AssetType[];
  personaId?: string;
  /** Words the prompt must all contain (any case). */
  q?: string;
  sort?: AssetSort;
}

/** A LIKE pattern matching `word` literally anywhere (% _ and \\ escaped). */
function containing(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const ORDERS: Record<AssetSort, SQL[]> = {
  newest: [desc(assets.createdAt), desc(assets.id)],
  oldest: [asc(assets.createdAt), asc(assets.id)],
  prompt: [sql`lower(${assets.prompt}) asc nulls last`, desc(assets.createdAt), desc(assets.id)],
};

export interface AssetPage {
  rows: AssetRow[];
  total: number;
  hasMore: boolean;
}

/** The user's assets (newest first unless `sort` says otherwise), with the total for pagination. */
export async function listAssets(ctx: AppContext, userId: string, options: ListAssetsOptions): Promise<AssetPage> {
  const filters: SQL[] = [eq(assets.userId, userId)];
  if (options.types && options.types.length > 0) filters.push(inArray(assets.type, [...options.types]));
  if (options.personaId) filters.push(eq(assets.personaId, options.personaId));
  for (const word of (options.q ?? '').split(/\s+/).filter(Boolean).slice(0, 10)) {
    filters.push(ilike(assets.prompt, containing(word)));
  }
  const where = and(...filters);
  const [rows, [totals]] = await Promise.all([
    ctx.db
      .select()
      .from(assets)
      .where(where)
      .orderBy(...ORDERS[options.sort ?? 'newest'])
      .limit(options.limit)
      .offset(options.offset),
    ctx.db.select({ total: count() }).from(assets).where(where),
  ]);
  const total = Number(totals?.total ?? 0);
  return { rows, total, hasMore: options.offset + rows.length < total };
}

export interface AssetPatch {
  prompt?: string | null;
  /** Merged into the current metadata (top-level keys replaced). */
  metadata?: Record<string, unknown>;
  status?: AssetStatus;
  service?: string | null;
  model?: string | null;
  type?: AssetType;
  personaId?: string | null;
}

/** Changes fields of the user's asset (404 when not theirs). Files are changed with replaceAssetFile. */
export async function updateAsset(ctx: AppContext, userId: string, id: string, patch: AssetPatch): Promise<AssetRow> {
  const current = await getAsset(ctx, userId, id);
  const [row] = await ctx.db
    .update(assets)
    .set({
      ...(patch.prompt !== undefined ? { prompt: patch.prompt } : {}),
      ...(patch.metadata !== undefined ? { metadata: { ...current.metadata, ...patch.metadata } } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.service !== undefined ? { service: patch.service } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.type !== undefined ? { type: patch.type } : {}),
      ...(patch.personaId !== undefined ? { personaId: patch.personaId } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(assets.id, id), eq(assets.userId, userId)))
    .returning();
  forgetAssetLists(ctx, userId);
  if (!row) throw notFound();
  return row;
}

/**
 * Removes stored objects the user owns that no other asset of theirs points at. Objects of other
 * users (and unknown keys) are left alone.
 */
async function removeOwnedFiles(
  ctx: AppContext,
  userId: string,
  keys: Array<string | null | undefined>,
  exceptAssetId: string,
): Promise<void> {
  const store = new MediaStore(ctx);
  for (const key of new Set(keys.filter((k): k is string => typeof k === 'string' && k.length > 0))) {
    const [shared] = await ctx.db
      .select({ id: assets.id })
      .from(assets)
      .where(
        and(
          eq(assets.userId, userId),
          ne(assets.id, exceptAssetId),
          or(eq(assets.key, key), eq(assets.thumbnailKey, key)),
        ),
      )
      .limit(1);
    if (shared) continue;
    const row = await store.get(key);
    if (!row || row.userId !== userId) continue;
    try {
      await store.delete(key);
    } catch (error) {
      ctx.log.warn({ err: error, key }, 'could not remove an asset file');
    }
  }
}

export interface ReplaceAssetFileInput {
  userId: string;
  assetId: string;
  /** The new file (already stored, owned by the user). */
  key: string;
  url: string;
  /** A new thumbnail; the old one is removed. Omit to keep the current one. */
  thumbnailKey?: string | null;
  /** Merged into the metadata, e.g. `{ replaced_by_enhancement: true, enhancement: {...} }`. */
  metadataPatch?: Record<string, unknown>;
}

/**
 * Points the asset at a new file (a finished upscale). The first file it ever had is kept in
 * `metadata.original_url` / `metadata.original_key` (and stays in storage); a file in between (a
 * second replacement) is removed, as is a replaced thumbnail.
 */
export async function replaceAssetFile(ctx: AppContext, input: ReplaceAssetFileInput): Promise<AssetRow> {
  const current = await getAsset(ctx, input.userId, input.assetId);
  const hasOriginal =
    typeof current.metadata.original_key === 'string' || typeof current.metadata.original_url === 'string';
  const metadata: Record<string, unknown> = {
    ...current.metadata,
    ...(hasOriginal ? {} : { original_url: current.url, original_key: current.key }),
    ...input.metadataPatch,
  };
  const [row] = await ctx.db
    .update(assets)
    .set({
      key: input.key,
      url: input.url,
      ...(input.thumbnailKey !== undefined ? { thumbnailKey: input.thumbnailKey } : {}),
      metadata,
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(assets.id, input.assetId), eq(assets.userId, input.userId)))
    .returning();
  forgetAssetLists(ctx, input.userId);
  if (!row) throw notFound();
  const stale: Array<string | null> = [];
  if (hasOriginal && current.key !== input.key && current.key !== metadata.original_key) stale.push(current.key);
  if (input.thumbnailKey !== undefined && current.thumbnailKey !== input.thumbnailKey) stale.push(current.thumbnailKey);
  await removeOwnedFiles(ctx, input.userId, stale, row.id);
  return row;
}

/** Deletes the user's asset (404 when not theirs) and the files it owns: file, thumbnail, kept original. */
export async function deleteAsset(ctx: AppContext, userId: string, id: string): Promise<void> {
  const row = await getAsset(ctx, userId, id);
  await ctx.db.delete(assets).where(and(eq(assets.id, id), eq(assets.userId, userId)));
  forgetAssetLists(ctx, userId);
  const original = typeof row.metadata.original_key === 'string' ? row.metadata.original_key : null;
  await removeOwnedFiles(ctx, userId, [row.key, row.thumbnailKey, original], row.id);
}

/** Which content types an asset type may point at; null = any. */
function expectedKind(type: AssetType): 'image' | 'video' | 'audio' | null {
  if (type === 'image' || type === 'enhancement') return 'image';
  if (type === 'video' || type === 'video_enhancement') return 'video';
  if (type === 'audio') return 'audio';
  return null;
}

/** A WebP thumbnail of a stored image (or a frame of a stored video), stored as a `thumbnail` object. */
export async function makeThumbnail(
  ctx: AppContext,
  userId: string,
  key: string,
  contentType: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const isImage = contentType.startsWith('image/');
  const isVideo = contentType.startsWith('video/');
  if (!isImage && !isVideo) return null;
  const webp = await withLocalFile(
    ctx.storage,
    key,
    async (file) => {
      if (isImage) return webpThumbnail(file);
      const probe = await probeMedia(ctx.config, file, signal);
      const at = probe.durationMs ? Math.min(1, probe.durationMs / 2000) : 0;
      return webpThumbnail(await grabFrame(ctx.config, file, at, signal));
    },
    signal,
  );
  const stored = await new MediaStore(ctx).put({
    body: webp,
    contentType: 'image/webp',
    ext: 'webp',
    storageClass: 'thumbnail',
    userId,
    source: 'thumbnail',
  });
  return stored.key;
}

/**
 * POST /api/ai/assets: registers media the user already has in storage. The URL must be one of
 * their own stored objects (400 otherwise); credits_used from the client is never trusted (0).
 * Images and videos get a WebP thumbnail. Saving again with the same id updates the asset.
 */
export async function registerAsset(ctx: AppContext, userId: string, body: CreateAssetBody): Promise<AssetRow> {
  let key: string | null = null;
  try {
    const parsed = parseMediaRef(ctx.config, body.url);
    if (parsed.kind === 'stored') key = parsed.key;
  } catch {
    key = null;
  }
  if (!key) throw badRequest(MESSAGES.assets.notYourMedia);
  const object = await ownedMediaObject(ctx, userId, key).catch(() => null);
  if (!object || object.userId !== userId) throw badRequest(MESSAGES.assets.notYourMedia);
  const kind = expectedKind(body.type);
  if (kind && !object.contentType.startsWith(`${kind}/`)) {
    throw new AppError(400, 'type_mismatch', MESSAGES.assets.typeMismatch(body.type, object.contentType));
  }
  const url = mediaUrl(object.key, object.contentType, object.storageClass);

  if (body.id) {
    const [existing] = await ctx.db.select().from(assets).where(eq(assets.id, body.id)).limit(1);
    if (existing && existing.userId !== userId) throw conflict(MESSAGES.assets.idTaken);
    if (existing) {
      const patch: AssetPatch = {
        type: body.type,
        prompt: body.prompt ?? existing.prompt,
        metadata: body.metadata,
        status: body.status,
        service: body.service,
        model: body.model,
        personaId: body.persona_id,
      };
      const updated = await updateAsset(ctx, userId, existing.id, patch);
      if (existing.key === object.key) return updated;
      return replaceAssetFile(ctx, {
        userId,
        assetId: existing.id,
        key: object.key,
        url,
        thumbnailKey: await safeThumbnail(ctx, userId, object.key, object.contentType),
      });
    }
  }

  return createAsset(ctx, {
    id: body.id,
    userId,
    type: body.type,
    key: object.key,
    url,
    thumbnailKey: await safeThumbnail(ctx, userId, object.key, object.contentType),
    prompt: body.prompt ?? null,
    metadata: body.metadata ?? {},
    status: body.status ?? 'completed',
    service: body.service ?? null,
    model: body.model ?? null,
    creditsUsed: 0,
    personaId: body.persona_id ?? null,
  });
}

async function safeThumbnail(
  ctx: AppContext,
  userId: string,
  key: string,
  contentType: string,
): Promise<string | null> {
  try {
    return await makeThumbnail(ctx, userId, key, contentType);
  } catch (error) {
    ctx.log.warn({ err: error, key }, 'could not make a thumbnail');
    return null;
  }
}
