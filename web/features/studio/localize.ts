import i18next from 'i18next';
import { translateMessage } from '../../i18n/index.ts';

// Spec messages with numbers in them (built by functions in common/messages.ts) cannot be looked up by their
// text, so they are matched here and translated with their values. English is always shown verbatim.
const PATTERNS: Array<{ pattern: RegExp; key: string; names: string[] }> = [
  {
    pattern:
      /^Image limit exceeded: (.+) supports maximum (\d+) images \(you have (\d+)\)\. Please remove (\d+) image\(s\)\.$/,
    key: 'messages.generation.imageLimitExceeded',
    names: ['model', 'max', 'have', 'remove'],
  },
  { pattern: /^Polling failed: (.+)$/, key: 'messages.generation.pollingFailed', names: ['status'] },
  {
    pattern: /^(.+) needs a video to work from \(videoUri\)$/,
    key: 'messages.generation.videoInputRequired',
    names: ['mode'],
  },
  { pattern: /^File size exceeds (\d+)MB limit$/, key: 'messages.upload.tooLarge', names: ['mb'] },
  { pattern: /^Upload failed \((\d+)\)$/, key: 'messages.upload.failedStatus', names: ['status'] },
  { pattern: /^You can upload at most (\d+) files at a time$/, key: 'messages.upload.tooManyFiles', names: ['max'] },
];

/** A user-facing message in the current language: catalogue messages, then the patterned ones, else as is. */
export function localizeMessage(message: string): string {
  if (i18next.language === 'en') return message;
  const translated = translateMessage(message);
  if (translated !== message) return translated;
  for (const { pattern, key, names } of PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const values = Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
    return i18next.t(key, { ...values, defaultValue: message });
  }
  return message;
}
