import { MEDIA_URL_PREFIX } from '../../../common/api/media.constants.ts';
import type { AppContext } from '../../context.ts';
import { signMediaUrl } from '../../platform/media/signing.ts';

const MEDIA_PREFIXES = Object.values(MEDIA_URL_PREFIX);

/**
 * A media URL everyone shown the campaign can open: the studio's own media paths are signed (the
 * brand's or creator's files are not the viewer's), anything else is passed through.
 */
export function viewableUrl(deps: Pick<AppContext, 'config' | 'clock'>, url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.includes('?') || !MEDIA_PREFIXES.some((p) => url.startsWith(p))) return url;
  return signMediaUrl(deps.config, url, undefined, deps.clock.now());
}
