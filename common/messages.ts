// User-facing messages. Those quoted from the spec are verbatim; the rest fill gaps the spec leaves. Each
// domain keeps its messages beside its contract (common/api/<domain>.messages.ts); they form one catalogue,
// keyed '<group>.<name>' (common/message-keys.ts), so the web translates them by key.

import { ACCOUNT_MESSAGES } from './api/account.messages.ts';
import { ADMIN_MESSAGES } from './api/admin.messages.ts';
import { ASSETS_MESSAGES } from './api/assets.messages.ts';
import { AUTH_MESSAGES } from './api/auth.messages.ts';
import { CAMPAIGNS_MESSAGES } from './api/campaigns.messages.ts';
import { CANVAS_IMAGES_MESSAGES } from './api/canvas-images.messages.ts';
import { DIRECTORY_MESSAGES } from './api/directory.messages.ts';
import { GENERATION_MESSAGES } from './api/generation.messages.ts';
import { INPAINT_MESSAGES } from './api/inpaint.messages.ts';
import { MEDIA_MESSAGES } from './api/media.messages.ts';
import { MULTI_REFERENCE_MESSAGES } from './api/multi-reference.messages.ts';
import { PAYMENTS_MESSAGES } from './api/payments.messages.ts';
import { PAYOUTS_MESSAGES } from './api/payouts.messages.ts';
import { PERSONAS_MESSAGES } from './api/personas.messages.ts';
import { SOCIAL_MESSAGES } from './api/social.messages.ts';
import { TASKS_MESSAGES } from './api/tasks.messages.ts';
import { keyedCatalogue, withParams } from './message-keys.ts';

export const MESSAGES = keyedCatalogue({
  ...AUTH_MESSAGES,
  ...MEDIA_MESSAGES,
  ...ASSETS_MESSAGES,
  ...PAYMENTS_MESSAGES,
  ...TASKS_MESSAGES,
  ...GENERATION_MESSAGES,
  ...CANVAS_IMAGES_MESSAGES,
  ...MULTI_REFERENCE_MESSAGES,
  ...INPAINT_MESSAGES,
  ...ACCOUNT_MESSAGES,
  ...PERSONAS_MESSAGES,
  ...DIRECTORY_MESSAGES,
  ...PAYOUTS_MESSAGES,
  ...ADMIN_MESSAGES,
  ...CAMPAIGNS_MESSAGES,
  ...SOCIAL_MESSAGES,
  generic: {
    notFound: 'Not found',
    internal: 'Something went wrong. Please try again.',
    validation: 'Validation failed',
    rateLimited: 'Too many requests. Please slow down.',
    bodyTooLarge: withParams(['limit'], (limit: string) => `The request is too large (at most ${limit} for this call)`),
    nulCharacter: 'Text cannot contain the NUL character (\\u0000)',
    invalidUnicode: 'Text contains an invalid character (an unpaired UTF-16 surrogate)',
    tooDeep: withParams(['levels'], (levels: number) => `The request is nested too deeply (at most ${levels} levels)`),
    textTooLong: withParams(
      ['what', 'max'],
      (what: string, max: number) => `${what} can be at most ${max.toLocaleString('en')} characters`,
    ),
    tooManyItems: withParams(
      ['what', 'max'],
      (what: string, max: number) => `At most ${max.toLocaleString('en')} ${what}`,
    ),
  },
} as const);
