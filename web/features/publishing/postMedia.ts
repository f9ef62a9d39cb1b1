// The files a post attaches: the user's assets, or the materials of a collaboration's campaign.
import type { Asset } from '../../../common/api/assets.ts';
import type { CampaignMaterial } from '../../../common/api/campaigns.ts';
import { isVideoType } from '../assets/AssetThumb.tsx';

export type ContentSource = 'collaborations' | 'materials';

/** A file attached to a post: one of the user's assets, or a material of the collaboration's campaign. */
export interface PostMedia {
  id: string;
  url: string;
  type: 'image' | 'video';
  thumbnail_url: string | null;
  prompt: string | null;
  origin: 'asset' | 'campaign';
}

export interface ContentChoice {
  source: ContentSource;
  collaborationId: string | null;
  /** The chosen collaboration's campaign, whose materials can be attached. */
  campaignId: string | null;
  media: PostMedia[];
}

/** What a post attaches: in a collaboration, campaign materials and own assets; otherwise own assets only. */
export function attachedMedia(content: ContentChoice, forCollaboration: boolean): PostMedia[] {
  return forCollaboration ? content.media : content.media.filter((m) => m.origin === 'asset');
}

export function fromAsset(asset: Asset): PostMedia {
  return {
    id: asset.id,
    url: asset.url,
    type: isVideoType(asset.type) ? 'video' : 'image',
    thumbnail_url: asset.thumbnail_url,
    prompt: asset.prompt,
    origin: 'asset',
  };
}

export function fromMaterial(material: CampaignMaterial): PostMedia {
  return { ...material, origin: 'campaign' };
}
