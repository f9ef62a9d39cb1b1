// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const MULTI_REFERENCE_MESSAGES = {
  multiReference: {
    promptAndReference: 'Please enter a prompt and add at least one reference image',
    tooManyFiles: withParams(['max'], (max: number) => `At most ${max} reference files can be added`),
    unsupportedType: 'Only images (and videos in video-to-video mode: mp4, mov, webm, avi) can be used',
    videoRequired: 'Add a video (mp4, mov, webm or avi) to use video-to-video mode',
    variationFailed: withParams(['n'], (n: number) => `Variation ${n} generation failed`),
    failed: 'Generation failed',
    weightRange: 'Reference weight must be between 10 % and 100 % (0.1 to 1)',
    strengthRange: 'Strength must be between 10 % and 100 % (0.1 to 1)',
  },
} as const;
