import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';

/**
 * Spec 8 Top-up: a refused request shows 'Failed to start purchase. Please try again.' (or the server's own
 * validation message when it names the problem, or 'Payments are not configured' on a site without them), a
 * request that never got an answer 'An error occurred…'.
 */
export function purchaseErrorMessage(error: unknown): string {
  if (error instanceof ApiError && !error.isNetwork) {
    if (error.status >= 400 && error.status < 500 && error.status !== 401 && error.message)
      return translateMessage(error.message);
    // A site without payments (production without Stripe): trying again will not help, so say why.
    if (error.code === 'payments_not_configured') return translateMessage(MESSAGES.payments.notConfigured);
    return translateMessage(MESSAGES.payments.startFailed);
  }
  return translateMessage(MESSAGES.payments.genericError);
}

/** The server's message for a refused request, else the given fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && !error.isNetwork && error.status >= 400 && error.status < 500 && error.message)
    return translateMessage(error.message);
  return translateMessage(fallback);
}
