import type { AppContext } from '../../context.ts';
import { cachePerDatabase } from '../../platform/cache/coherent-cache.ts';

/**
 * Serialized 200 bodies (UTF-8 bytes, sent as they are) of GET /api/ai/assets per user and normalized query,
 * dropped when the migration 0007 trigger announces a committed change to the user's assets. Asset DTOs carry
 * unsigned media paths (no expiry), so the TTL only bounds memory held by idle users.
 */
export const assetListCache = cachePerDatabase<Buffer>({
  channel: 'genpro_assets_changed',
  ttlMs: 30_000,
  maxEntries: 500,
});

/** In-process writes drop the user's pages at once, besides the trigger's notification. */
export function forgetAssetLists(ctx: Pick<AppContext, 'db'>, userId: string): void {
  assetListCache.existing(ctx.db)?.invalidate(userId);
}
