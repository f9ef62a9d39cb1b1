import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';

/** The message to show for a failed auth call: the server's error, or the network message. */
export function authErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateMessage(MESSAGES.verification.network);
    return translateMessage(error.message);
  }
  return translateMessage(MESSAGES.generic.internal);
}

/** A form field's validation message (a spec message) in the current language. */
export const fieldError = (message?: string) => (message ? translateMessage(message) : undefined);
