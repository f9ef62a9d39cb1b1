// The sequence panel's spec messages (common/rules/sequences.ts SEQUENCE_MESSAGES): verbatim in English,
// translated under "sequences.messages.<key>" in other languages with the same values.
import i18next from 'i18next';
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';
import { localizeMessage } from '../studio/localize.ts';

type MessageKey = keyof typeof SEQUENCE_MESSAGES;
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
  for (const [key, value] of Object.entries(SEQUENCE_MESSAGES)) {
    if (value === message) return i18next.t(`sequences.messages.${key}`, { defaultValue: message });
  }
  return localizeMessage(message);
}
