// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const GENERATION_MESSAGES = {
  generation: {
    imageLimitExceeded: withParams(
      ['model', 'max', 'have', 'remove'],
      (model: string, max: number, have: number, remove: number) =>
        `Image limit exceeded: ${model} supports maximum ${max} images (you have ${have}). Please remove ${remove} image(s).`,
    ),
    authError: 'Authentication error. Please log in again.',
    agentAnswerTooLong: withParams(
      ['kb'],
      (kb: number) => `The answer would be longer than ${kb} KB. Please shorten the text or ask for less.`,
    ),
    videoFailed: 'Video generation failed',
    imageFailed: 'Image generation failed',
    audioFailed: 'Audio generation failed',
    pollingFailed: withParams(['status'], (status: number | string) => `Polling failed: ${status}`),
    videoTimedOut: 'Video generation timed out. Please try again.',
    timedOutAfter10: 'timed out after 10 minutes',
    contentFiltered: 'Content Filtered',
    tryDifferentPrompt: 'Try Different Prompt',
    creditsRequired: 'Credits Required',
    addCredits: 'Add Credits',
    retry: 'Retry',
    actionFailed: 'Action Failed',
    retryAction: 'Retry Action',
    videoFilterText: 'Hello, please refine your prompt as this is interfering with our video generation guidelines.',
    videoBalanceText:
      'The video provider account balance is insufficient for this generation. Please add credits to continue.',
    invalidTab: 'Invalid action tab',
    working: 'Working...',
    unexpectedResponse: 'Video generation returned unexpected response structure',
    contentPolicy: 'Your prompt was blocked by the content policy. Please rephrase it.',
    imageSizeOutOfRange: withParams(
      ['min', 'max'],
      (min: number, max: number) => `Image size must be between ${min} and ${max} pixels per side`,
    ),
    videoInputRequired: withParams(['mode'], (mode: string) => `${mode} needs a video to work from (videoUri)`),
    characterImageRequired: 'ActStudio needs a character image (characterImages or inputImage)',
    generationFailed: 'Generation failed',
    /** Production without a vendor for the model and without LOCAL_ENGINES=true (issue 19). */
    engineUnavailable: withParams(
      ['model', 'variables'],
      (model: string, variables: readonly string[]) =>
        `${model} is not available on this server. Set ${[...variables, 'LOCAL_ENGINES=true'].join(' or ')}`,
    ),
  },
} as const;
