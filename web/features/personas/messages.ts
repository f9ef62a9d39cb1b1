import i18next from 'i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { localizeMessage } from '../../i18n/localize.ts';

// The persona messages of the spec are shown verbatim in English; in Arabic they are looked up by their
// text under personas.msg.<name> (this feature's strings), then in the shared catalogue.
let keys: Map<string, string> | undefined;

function messageKeys(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of Object.entries(MESSAGES.personas)) {
    if (typeof value === 'string') map.set(value, `personas.msg.${name}`);
  }
  return map;
}

/** A user-facing message (from the spec's catalogue or the server) in the current language. */
export function personaMessage(message: string): string {
  if (i18next.language === 'en') return message;
  keys ??= messageKeys();
  const key = keys.get(message);
  if (key && i18next.exists(key)) return i18next.t(key);
  return localizeMessage(message);
}

/** The text of a caught error, or the fallback. */
export { errorMessage as errorText } from '../../api/client.ts';
