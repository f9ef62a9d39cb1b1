import i18next from 'i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { marketMessage } from '../../i18n/market-messages.ts';

const M = MESSAGES.admin;

/** The server's own error text, or null when the reply had none (or never came). */
function serverText(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.isNetwork) return null;
  return error.message && error.message !== MESSAGES.generic.internal ? error.message : null;
}

const isNetwork = (error: unknown) => error instanceof ApiError && error.isNetwork;

/**
 * Spec 8 (Admin): the server's error, else 'Failed to approve/reject user/brand'; a request that never got an
 * answer says 'Failed to {action} user. Please try again.' for creators and 'Network error occurred while
 * {action} brand' for brands.
 */
export function decisionError(error: unknown, target: 'user' | 'brand', action: 'approve' | 'reject'): string {
  if (isNetwork(error)) {
    if (target === 'user') {
      return i18next.language === 'en'
        ? M.actionUserFailed(action)
        : i18next.t('admin.msg.actionUserFailed', { action: i18next.t(`admin.verbs.${action}`) });
    }
    const ing = action === 'approve' ? 'approving' : 'rejecting';
    return i18next.language === 'en'
      ? M.brandNetworkError(ing)
      : i18next.t('admin.msg.brandNetworkError', { action: i18next.t(`admin.verbs.${action}`) });
  }
  return marketMessage(serverText(error) ?? M.approveFailed);
}

/** Spec 8: the server's error, else 'Failed to delete user'. */
export function deleteError(error: unknown): string {
  return marketMessage(serverText(error) ?? M.deleteFailed);
}
