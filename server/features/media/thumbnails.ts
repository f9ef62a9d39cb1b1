import type { AppContext } from '../../context.ts';
import { thumbnailKeysOf } from '../assets/service.ts';
import { uploadThumbnailKeysOf } from '../uploads/service.ts';

/**
 * The WebP thumbnail that stands for each stored file in lists, by the file's key: an asset's thumbnail, else an
 * upload's. Files with neither are left out. The caller has checked the viewer may see those files.
 */
export async function thumbnailsOf(ctx: Pick<AppContext, 'db'>, keys: readonly string[]): Promise<Map<string, string>> {
  const [fromAssets, fromUploads] = await Promise.all([thumbnailKeysOf(ctx, keys), uploadThumbnailKeysOf(ctx, keys)]);
  return new Map([...fromUploads, ...fromAssets]);
}
