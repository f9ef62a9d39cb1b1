import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../common/constants.ts';
import { MESSAGES } from '../../common/messages.ts';
import { usePreferences } from '../app/preferences.ts';
import en from './en.json';

type Bundle = Record<string, unknown>;

// A feature may keep its own strings beside its code in web/features/<feature>/i18n/{en,ar}.json; they are
// merged over the shared files, each feature under its own top-level keys. Arabic is its own chunk
// (./ar.ts), loaded by loadLanguage: it would add ~38 KB gzipped to every page's first load.
const featureBundles = import.meta.glob<Bundle>('../features/*/i18n/en.json', { eager: true, import: 'default' });

void i18next.use(initReactI18next).init({
  resources: { en: { translation: Object.assign({ ...en }, ...Object.values(featureBundles)) } },
  lng: usePreferences.getState().language,
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Makes a language's strings available (Arabic is fetched once); resolve before switching to it. */
export async function loadLanguage(language: string): Promise<void> {
  if (language !== 'ar' || i18next.hasResourceBundle('ar', 'translation')) return;
  const { arabicStrings } = await import('./ar.ts');
  i18next.addResourceBundle('ar', 'translation', arabicStrings);
}

// Spec messages (common/messages.ts) are shown verbatim in English. In other languages a message that the
// server or a validator sends is looked up by its English text under "messages.<group>.<name>".
let messageKeys: Map<string, string> | undefined;

function buildMessageKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [group, entries] of Object.entries(MESSAGES)) {
    for (const [name, value] of Object.entries(entries)) {
      if (typeof value === 'string') keys.set(value, `messages.${group}.${name}`);
    }
  }
  const v = MESSAGES.validation;
  keys.set(v.passwordTooShort(PASSWORD_MIN_LENGTH), 'messages.validation.passwordTooShort');
  keys.set(v.passwordTooLong(PASSWORD_MAX_LENGTH), 'messages.validation.passwordTooLong');
  return keys;
}

/** Translate a user-facing message that may come from the spec's catalogue; unknown text is shown as is. */
export function translateMessage(message: string): string {
  messageKeys ??= buildMessageKeys();
  const key = messageKeys.get(message);
  if (!key) return message;
  return i18next.t(key, {
    defaultValue: message,
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
  });
}
