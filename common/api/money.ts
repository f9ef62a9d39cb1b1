import { z } from 'zod';
import { eurosToCents, hasAtMostTwoDecimals } from '../rules/campaigns.ts';

export interface EuroAmountMessages {
  /** Not a number. */
  invalid: string;
  /** Below `minCents` once rounded to cents. */
  min: string;
  /** Above `maxCents` once rounded to cents. */
  max: string;
  /** More than two decimals. */
  decimals: string;
}

/**
 * A euro amount as a request gives it: a number with at most two decimals whose bounds are judged on
 * the cents it is stored as. So €0.000000001 is 0 cents and fails "more than €0" instead of being
 * stored as nothing. `coerce` accepts numeric strings (form fields).
 */
export function euroAmount(
  messages: EuroAmountMessages,
  bounds: { minCents: number; maxCents: number },
  options: { coerce?: boolean } = {},
) {
  const number = options.coerce ? z.coerce.number({ error: messages.invalid }) : z.number({ error: messages.invalid });
  return number
    .refine((euros) => eurosToCents(euros) >= bounds.minCents, messages.min)
    .refine((euros) => eurosToCents(euros) <= bounds.maxCents, messages.max)
    .refine(hasAtMostTwoDecimals, messages.decimals);
}
