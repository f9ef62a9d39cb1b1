// The film studio's spec messages (common/rules/film.ts FILM_MESSAGES): verbatim in English, translated under
// "film.messages.<key>" in other languages; other server errors go through the shared catalogue.
import i18next from 'i18next';
import { FILM_MESSAGES } from '../../../common/rules/film.ts';
import { localizeMessage } from '../../i18n/localize.ts';

/** A spec or server message in the current language. */
export function filmError(message: string): string {
  if (i18next.language === 'en') return message;
  for (const [key, value] of Object.entries(FILM_MESSAGES)) {
    if (value === message) return i18next.t(`film.messages.${key}`, { defaultValue: message });
  }
  return localizeMessage(message);
}
