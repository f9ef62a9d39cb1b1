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
    choosePage: 'Choose the Page to connect',
    choosePageHint:
      'You manage several Pages. GenPro Studio will post to the one you choose; to post to another later, connect Facebook again and choose it.',
    pageNotOffered: 'That Page was not among those offered. Please start again from the studio.',
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
    instagramNeedsMedia: 'Instagram cannot publish a post without media: add an image or a video to the post.',
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
    /** YouTube (issue 28): a post without exactly one video. */
    youtubeVideoOnly: 'YouTube takes videos only: attach exactly one video to post there',
    youtubeTitleMissing: 'YouTube needs a title: the first line of the message is empty',
    youtubeNoChannel: 'This Google account has no YouTube channel. Create one on YouTube, then connect again.',
    youtubeSubscribersHidden: 'This YouTube channel hides its subscriber count',
    // A post a network cannot take, refused before publishing (common/rules/social-media.ts, issue 28).
    captionTooLong: withParams(
      ['platform', 'limit', 'length'],
      (platform: string, limit: number, length: number) =>
        `${platform} takes captions of at most ${limit} characters; this one has ${length}`,
    ),
    mediaRequired: withParams(
      ['platform'],
      (platform: string) => `${platform} needs an image or a video in every post; this post has none`,
    ),
    videoRequired: withParams(
      ['platform'],
      (platform: string) => `${platform} needs a video in every post; this post has none`,
    ),
    imagesNotTaken: withParams(
      ['platform'],
      (platform: string) => `${platform} takes videos only; remove the images from this post`,
    ),
    mediaNotMixed: withParams(
      ['platform'],
      (platform: string) => `${platform} does not take images and a video in the same post`,
    ),
    tooManyMedia: withParams(
      ['platform', 'limit', 'count'],
      (platform: string, limit: number, count: number) =>
        `${platform} takes at most ${limit} ${limit === 1 ? 'file' : 'files'} in a post; this one has ${count}`,
    ),
    tooManyVideos: withParams(
      ['platform', 'limit', 'count'],
      (platform: string, limit: number, count: number) =>
        `${platform} takes at most ${limit} ${limit === 1 ? 'video' : 'videos'} in a post; this one has ${count}`,
    ),
    imageFormatRefused: withParams(
      ['platform', 'formats', 'item', 'format'],
      (platform: string, formats: string, item: string, format: string) =>
        `${platform} takes images in ${formats} only; ${item} is ${format}`,
    ),
    imageTooLarge: withParams(
      ['platform', 'limit', 'item', 'size'],
      (platform: string, limit: string, item: string, size: string) =>
        `${platform} takes images of at most ${limit}; ${item} is ${size}`,
    ),
    imageAspectRefused: withParams(
      ['platform', 'min', 'max', 'item', 'size'],
      (platform: string, min: string, max: string, item: string, size: string) =>
        `${platform} takes images with an aspect ratio from ${min} to ${max}; ${item} is ${size}`,
    ),
    imageTooManyPixels: withParams(
      ['platform', 'limit', 'item', 'size'],
      (platform: string, limit: string, item: string, size: string) =>
        `${platform} takes images of at most ${limit} pixels; ${item} is ${size}`,
    ),
    videoFormatRefused: withParams(
      ['platform', 'formats', 'item', 'format'],
      (platform: string, formats: string, item: string, format: string) =>
        `${platform} takes videos in ${formats} only; ${item} is ${format}`,
    ),
    videoTooLarge: withParams(
      ['platform', 'limit', 'item', 'size'],
      (platform: string, limit: string, item: string, size: string) =>
        `${platform} takes videos of at most ${limit}; ${item} is ${size}`,
    ),
    videoTooSmall: withParams(
      ['platform', 'limit', 'item', 'size'],
      (platform: string, limit: string, item: string, size: string) =>
        `${platform} takes videos of at least ${limit}; ${item} is ${size}`,
    ),
    videoTooLong: withParams(
      ['platform', 'limit', 'item', 'duration'],
      (platform: string, limit: string, item: string, duration: string) =>
        `${platform} takes videos of at most ${limit}; ${item} is ${duration}`,
    ),
    videoTooShort: withParams(
      ['platform', 'limit', 'item', 'duration'],
      (platform: string, limit: string, item: string, duration: string) =>
        `${platform} takes videos of at least ${limit}; ${item} is ${duration}`,
    ),
    videoAspectRefused: withParams(
      ['platform', 'min', 'max', 'item', 'size'],
      (platform: string, min: string, max: string, item: string, size: string) =>
        `${platform} takes videos with an aspect ratio from ${min} to ${max}; ${item} is ${size}`,
    ),
    videoSidesRefused: withParams(
      ['platform', 'limit', 'item', 'size'],
      (platform: string, limit: string, item: string, size: string) =>
        `${platform} takes videos of ${limit} a side; ${item} is ${size}`,
    ),
    /** Production without the network's live credentials and without SANDBOX_NETWORKS=true (issue 27). */
    networkUnavailable: withParams(
      ['platform', 'prefix'],
      (platform: string, prefix: string) =>
        `${platform} is not available on this server. Set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET, or SANDBOX_NETWORKS=true for the sandbox network`,
    ),
    /** TikTok posts a video or photos, never text alone (issue 28). */
    tiktokNeedsVideo: 'TikTok needs a video or photos: add one to the post to publish it on TikTok',
    tiktokPhotoRules: 'TikTok photo posts take 1 to 35 photos in JPEG or WebP (not PNG or GIF)',
    /** A video longer than the TikTok account may post (creator_info max_video_post_duration_sec). */
    tiktokVideoTooLong: withParams(
      ['seconds', 'limit'],
      (seconds: number, limit: number) =>
        `The video is too long for this TikTok account: ${seconds} seconds, at most ${limit}`,
    ),
  },
} as const;
