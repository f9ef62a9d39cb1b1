import type { AppContext } from '../../context.ts';
import { CoherentCache } from '../../platform/cache/coherent-cache.ts';

/**
 * Serialized 200 bodies (UTF-8 bytes, sent as they are) of GET /api/ai/assets per user and normalized query,
 * dropped when the migration 0007 trigger announces a committed change to the user's assets. Asset DTOs carry
 * unsigned media paths (no expiry), so the TTL only bounds memory held by idle users.
 */
type AssetListCache = CoherentCache<Buffer>;

const caches = new WeakMap<object, AssetListCache>();

/** The cache of the studio that owns `ctx.db` (one per database handle). */
export function assetListCacheOf(ctx: Pick<AppContext, 'db' | 'clock'>): AssetListCache {
  let cache = caches.get(ctx.db);
  if (!cache) {
    cache = new CoherentCache<Buffer>(ctx.clock, {
      channel: 'genpro_assets_changed',
      ttlMs: 30_000,
      maxEntries: 500,
    });
    caches.set(ctx.db, cache);
  }
  return cache;
}

/** In-process writes drop the user's pages at once, besides the trigger's notification. */
export function forgetAssetLists(ctx: Pick<AppContext, 'db'>, userId: string): void {
  caches.get(ctx.db)?.invalidate(userId);
}
