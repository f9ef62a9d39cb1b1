// The sequence panel's spec messages (common/rules/sequences.ts SEQUENCE_MESSAGES): verbatim in English,
// translated under "sequences.messages.<key>" in other languages with the same values.
import i18next from 'i18next';
import { messageKeyOf } from '../../../common/message-keys.ts';
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';
import { localizeMessage } from '../../i18n/localize.ts';

type MessageKey = keyof typeof SEQUENCE_MESSAGES;
/** SEQUENCE_MESSAGES are keyed as the group 'sequences' (common/rules/sequences.ts). */
const SEQUENCE_KEY_PREFIX = 'sequences.';
type Values = Record<string, string | number>;

/** The message in the current language. `values` are passed to the spec function in order (name, status…). */
export function sequenceText(key: MessageKey, values: Values = {}): string {
  const message = SEQUENCE_MESSAGES[key] as string | ((...args: Array<string | number>) => string);
  const english = typeof message === 'function' ? message(...Object.values(values)) : message;
  if (i18next.language === 'en') return english;
  return i18next.t(`sequences.messages.${key}`, { ...values, defaultValue: english });
}

/** A server or spec error in the current language: a sequence message, another catalogue message, or as is. */
export function sequenceError(message: string): string {
  if (i18next.language === 'en') return message;
  const keyed = messageKeyOf(message);
  if (keyed?.key.startsWith(SEQUENCE_KEY_PREFIX)) {
    const key = keyed.key.slice(SEQUENCE_KEY_PREFIX.length);
    return i18next.t(`sequences.messages.${key}`, { ...keyed.params, defaultValue: message });
  }
  return localizeMessage(message);
}
