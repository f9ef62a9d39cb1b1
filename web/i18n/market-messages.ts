import i18next from 'i18next';
import { MESSAGES } from '../../common/messages.ts';
import { localizeMessage } from './localize.ts';

// The directory and admin messages of the spec are shown verbatim in English; in Arabic they are looked up
// by their text under directory.msg.<name> and admin.msg.<name> (these features' strings).
let keys: Map<string, string> | undefined;

function messageKeys(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [group, entries] of [
    ['directory', MESSAGES.directory],
    ['admin', MESSAGES.admin],
  ] as const) {
    for (const [name, value] of Object.entries(entries)) {
      if (typeof value === 'string') map.set(value, `${group}.msg.${name}`);
    }
  }
  return map;
}

/** A user-facing message (from the spec's catalogue or the server) in the current language. */
export function marketMessage(message: string): string {
  if (i18next.language === 'en') return message;
  keys ??= messageKeys();
  const key = keys.get(message);
  if (key && i18next.exists(key)) return i18next.t(key);
  return localizeMessage(message);
}
