// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const CANVAS_IMAGES_MESSAGES = {
  canvasImages: {
    compositionFailed: 'Composition generation failed',
    editFailed: 'Processing failed',
    tooManyImages: withParams(['max'], (max: number) => `At most ${max} images can be composed at once`),
    imagesRequired: 'Add at least one image',
    tooManySteps: withParams(['max'], (max: number) => `At most ${max} composition steps are allowed`),
    stepsRequired: 'Add at least one composition step',
    regionOutside: withParams(
      ['id', 'width', 'height'],
      (id: string, width: number, height: number) =>
        `Region of step "${id}" must lie within the base image (${width}x${height})`,
    ),
    duplicateStep: withParams(['id'], (id: string) => `Step id "${id}" is used more than once`),
    imageRequired: 'An image is required',
    notAnImage: 'Only image files can be used',
    quality: 'Quality must be 1k, 2k or 4k',
  },
} as const;
