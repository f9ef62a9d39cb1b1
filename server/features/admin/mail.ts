// What an admin's decision tells the creator or brand (a notification: mailed as their settings say).
import type { NotificationInput } from '../notifications/service.ts';

const PRODUCT = 'GenPro Studio';

export function creatorDecisionNotice(
  userId: string,
  decision: 'approve' | 'reject',
  creatorType: string | null,
): NotificationInput {
  if (decision === 'approve') {
    const type = creatorType ? creatorType.replaceAll('_', ' ') : 'creator';
    return {
      userId,
      kind: 'account.creator_approved',
      subject: `Your ${PRODUCT} creator account is approved`,
      lines: [
        `Good news: an admin approved your creator account (${type}).`,
        'The campaigns pool, the creator and brand directories and My Campaigns are now open to you.',
      ],
      path: '/dashboard',
    };
  }
  return {
    userId,
    kind: 'account.creator_rejected',
    subject: `Your ${PRODUCT} creator application`,
    lines: [
      'An admin reviewed your creator account and did not approve it. You can keep using the studio.',
      'If you think this is a mistake, contact support.',
    ],
    path: '/contact',
  };
}

export function brandDecisionNotice(userId: string, decision: 'approve' | 'reject'): NotificationInput {
  return decision === 'approve'
    ? {
        userId,
        kind: 'account.brand_verified',
        subject: `Your ${PRODUCT} brand is verified`,
        lines: ['An admin verified your brand profile.'],
        path: '/dashboard',
      }
    : {
        userId,
        kind: 'account.brand_rejected',
        subject: `Your ${PRODUCT} brand verification`,
        lines: [
          'An admin reviewed your brand profile and did not verify it.',
          'If you think this is a mistake, contact support.',
        ],
        path: '/contact',
      };
}
