import i18next from 'i18next';
import { translateMessage } from './index.ts';

/** A user-facing message in the current language (translated by its catalogue key); English is shown verbatim. */
export function localizeMessage(message: string): string {
  if (i18next.language === 'en') return message;
  return translateMessage(message);
}
