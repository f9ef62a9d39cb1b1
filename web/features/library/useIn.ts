// "Use in" from the Library (issue 29 point 9): hands chosen assets to the studio, the canvas or a post through
// each tool's own entry point (the studio's input slots, the canvas store, the publish tab's `media` URL
// parameter), then opens that tool.
import type { Asset } from '../../../common/api/assets.ts';
import { MAGIC_MODIFY_MODEL } from '../../../common/api/generation.constants.ts';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import { isVideoType } from '../assets/AssetThumb.tsx';
import { useCanvas } from '../canvas/store.ts';
import { addAssets } from '../studio/inputs.ts';
import { useStudio } from '../studio/store.ts';

export type UseInTarget = 'studio' | 'canvas' | 'publish';

const isImage = (asset: Asset) => asset.type === 'image' || asset.type === 'enhancement' || asset.type === 'persona';
const dimension = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);

/** The assets a target takes: images for the studio and canvas (or one video for the studio), images and videos for a post. */
export function usableFor(target: UseInTarget, assets: readonly Asset[]): Asset[] {
  const ready = assets.filter((asset) => asset.status === 'completed');
  if (target === 'publish') return ready.filter((asset) => isImage(asset) || isVideoType(asset.type));
  const images = ready.filter(isImage);
  if (target === 'studio' && images.length === 0) return ready.filter((asset) => isVideoType(asset.type)).slice(0, 1);
  return target === 'studio' ? images.slice(0, UPLOAD.maxFiles) : images;
}

/**
 * Gives the assets to the target and returns where to go. The studio takes images as references of an image
 * (or a video as the input of MagicModify); the canvas places each image at its own aspect; a post attaches them.
 */
export function handOff(target: UseInTarget, assets: readonly Asset[]): string {
  const usable = usableFor(target, assets);
  if (target === 'publish') {
    const ids = usable.map((asset) => asset.id).join(',');
    return `/dashboard?view=genproStudio&tab=publish&media=${encodeURIComponent(ids)}`;
  }
  if (target === 'canvas') {
    const { addImage } = useCanvas.getState();
    for (const asset of usable) {
      addImage({
        url: asset.url,
        thumbnailUrl: asset.thumbnail_url,
        name: asset.prompt ?? asset.id,
        prompt: asset.prompt ?? undefined,
        assetId: asset.id,
        naturalWidth: dimension(asset.metadata.width),
        naturalHeight: dimension(asset.metadata.height),
        engine: engineOf(asset.metadata),
      });
    }
    return '/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1';
  }
  const video = usable.length === 1 && usable[0] && isVideoType(usable[0].type);
  // A video goes to MagicModify (video-to-video), the video model that takes a video input.
  if (video) useStudio.getState().setVideo({ model: MAGIC_MODIFY_MODEL });
  addAssets(video ? 'videoInput' : 'imageReferences', usable);
  return `/dashboard?view=genproStudio&tab=creator&mode=${video ? 'video' : 'image'}`;
}
