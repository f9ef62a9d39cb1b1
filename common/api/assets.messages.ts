// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const ASSETS_MESSAGES = {
  assets: {
    failedToLoad: 'Failed to load',
    imageUnavailable: 'Image Unavailable',
    videoUnavailable: 'Video Unavailable',
    upscaleFailed: 'upscaling failed',
    upscaleTimedOut: 'Enhancement timed out - webhook not received after 30 minutes.',
    notYourMedia: 'The URL must point to media in your library',
    selectModelAndOption: 'Please select a model and option',
    enhanceImageOnly: 'Image enhancement needs an image',
    enhanceVideoOnly: 'Video enhancement needs a video',
    unknownType: withParams(['type'], (type: string) => `Unknown asset type: ${type}`),
    typeMismatch: withParams(
      ['type', 'contentType'],
      (type: string, contentType: string) => `A ${type} asset cannot point at ${contentType} media`,
    ),
    idTaken: 'An asset with this id already exists',
  },
} as const;
