// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const SOCIAL_MESSAGES = {
  social: {
    // Spec 5 and 8, verbatim.
    noAccounts: 'No social media accounts connected. Please connect at least one platform first.',
    selectOneCollaboration:
      'Please select exactly one active collaboration to post content for. This helps track your campaign deliverables and ensure proper attribution.',
    collaborationInactive: 'Selected collaboration is no longer active. Please select a different collaboration.',
    collaborationCheckFailed: 'Could not validate collaboration. Please try again.',
    futureDateTime: 'Please select a future date and time',
    editComingSoon: 'Edit functionality coming soon!',
    rescheduleInvalid: 'Please enter a valid future date and time',
    rescheduleFormat: 'Invalid date format. Please use YYYY-MM-DD HH:MM',
    scheduleFailed: 'Failed to schedule post',
    cancelFailed: 'Failed to cancel post',
    dayLoadFailed: 'Failed to load posts for this date',
    loadPostsError: 'Error Loading Posts',
    unknownError: 'Unknown error',
    networkError: 'Network error occurred',
    // Ours: the gaps the spec leaves.
    messageRequired: 'Please write a message to post',
    platformsRequired: 'Select at least one platform',
    dateRequired: 'Please pick a date',
    timeRequired: 'Please pick a time',
    calendarDateInvalid: withParams(['field'], (field: string) => `${field} must be a calendar date as YYYY-MM-DD`),
    calendarRangeReversed: 'The calendar range ends before it starts: end must be on or after start',
    calendarRangeTooLong: withParams(
      ['days'],
      (days: number) => `The calendar range is too long: at most ${days} days`,
    ),
    timezoneInvalid: 'Unknown time zone',
    platformNotConnected: withParams(['platform'], (platform: string) => `${platform} is not connected`),
    unknownPlatform: 'Unknown social platform',
    postNotFound: 'Scheduled post not found',
    onlyFutureScheduled: 'Only scheduled posts in the future can be changed',
    nothingToUpdate: 'Nothing to update',
    cancelled: 'Scheduled post cancelled',
    disconnected: 'Account disconnected',
    connectFailed: 'The connection could not be completed. Please try again.',
    connectDenied: 'The connection was not approved.',
    connectExpired: 'This connection link has expired. Please start again from the studio.',
    connectedCloseTab: 'Account connected. You can close this tab.',
    connectOtherBrowser:
      'This connection was not started in this browser, so nothing was connected. Please start again from the studio.',
    connectOtherAccount:
      'This connection was started by another GenPro Studio account than the one signed in here, so nothing was connected. Please start again from the studio.',
    mediaUrlInvalid: withParams(
      ['field'],
      (field: string) =>
        `${field}: each item must be one of your media or a public http(s) URL (no private or local addresses)`,
    ),
    brandsNoCollaboration: 'Brand accounts publish materials only',
    tokenExpired: 'The connection to this account has expired. Please reconnect it.',
    publishFailed: 'The post could not be published',
    onlyFailedRepublish: 'Only a post that failed can be published again',
    connectedResumed: withParams(
      ['count'],
      (count: number) =>
        `Account connected. ${count === 1 ? '1 missed post is' : `${count} missed posts are`} being published. You can close this tab.`,
    ),
    messageTooLong: withParams(
      ['platform', 'length', 'limit'],
      (platform: string, length: number, limit: number) =>
        `The message is too long for ${platform}: ${length} characters, at most ${limit}. Shorten it, or turn on Cross-post optimization in Settings.`,
    ),
    postGone: 'This post does not exist',
  },
} as const;
