// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const INPAINT_MESSAGES = {
  magicSelector: {
    inpaintPrompt: 'Please enter a prompt for inpainting',
    replaceReference: 'Please upload a reference image for replacement',
    styleReference: 'Please upload a reference image for style transfer',
    modePrompt: withParams(['mode'], (mode: string) => `Please enter a prompt for ${mode} mode`),
    failed: 'Inpainting failed',
    baseRequired: 'Please upload a base image',
    maskRequired: 'Please paint the area to change',
    mode: 'Unknown Magic Selector mode',
    quality: 'Quality must be draft, standard or premium',
    styleStrength: 'Style strength must be between 0 and 100',
    fileType: 'Only png, jpg, jpeg and webp images can be used',
    oneFile: 'Please drop one image',
  },
} as const;
