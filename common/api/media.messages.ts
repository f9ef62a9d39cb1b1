// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const MEDIA_MESSAGES = {
  upload: {
    failed: 'Upload failed',
    failedStatus: withParams(['status'], (status: number) => `Upload failed (${status})`),
    tooLarge: withParams(['mb'], (mb: number) => `File size exceeds ${mb}MB limit`),
    unsupportedType: 'This file type is not supported',
    noFile: 'No file was uploaded',
    tooManyFiles: withParams(['max'], (max: number) => `You can upload at most ${max} files at a time`),
    invalidBase64: 'The file data is not valid base64',
    malformedForm: 'The upload form data is malformed',
    /** Build it with storageFullMessage (common/rules/storage.ts), which formats the sizes. */
    storageFull: withParams(
      ['used', 'limit'],
      (used: string, limit: string) => `Storage full: ${used} of ${limit} used. Delete assets to free space.`,
    ),
    studioStorageFull:
      'The studio’s storage is full, so nothing new can be stored right now. Please try again later or contact support.',
  },
  media: {
    linkExpired: 'This media link has expired',
    linkInvalid: 'This media link is not valid',
    rangeNotSatisfiable: 'Requested range not satisfiable',
    storageUnavailable: 'Media storage is unavailable right now. Please try again in a few moments.',
    imageRefInvalid: 'Use an image from your own media library or an image file, not a link to another site',
  },
  remote: {
    unsupportedMime: 'Unsupported MIME type',
    invalidUrl: 'Invalid URL format',
    tooLarge: 'Remote file too large',
    streamTooLarge: 'Stream size exceeded limit',
    fetchFailed: 'Failed to fetch media from URL',
    privateAddress: 'This URL points to a private or local address and cannot be fetched',
  },
  inputs: {
    notAMediaUrl: 'The media URL is not valid',
    unreadable: 'An input file could not be read',
  },
} as const;
