// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const ADMIN_MESSAGES = {
  admin: {
    creatorTypeRequired: 'Please select a creator type before approving',
    creatorTypeUnknown: 'Choose a creator type from the list',
    approveFailed: 'Failed to approve/reject user/brand',
    deleteFailed: 'Failed to delete user',
    actionUserFailed: withParams(['action'], (action: string) => `Failed to ${action} user. Please try again.`),
    brandNetworkError: withParams(['action'], (action: string) => `Network error occurred while ${action} brand`),
    deleteConfirm:
      'This permanently deletes the user and removes their AI assets, campaigns and profiles. This cannot be undone.',
    creatorNotFound: 'Creator not found',
    brandNotFound: 'Brand not found',
    userNotFound: 'User not found',
    notPending: 'Only pending creators can be approved or rejected',
    brandNotPending: 'This brand has already been verified or rejected',
    cannotDeleteSelf: 'You cannot delete your own account here. Use the Security tab of your account instead.',
    lastAdmin: 'The last admin account cannot be deleted',
    creatorApproved: 'Creator approved',
    creatorRejected: 'Creator rejected',
    brandVerified: 'Brand verified',
    brandRejected: 'Brand rejected',
    userDeleted: 'User deleted permanently',
  },
} as const;
