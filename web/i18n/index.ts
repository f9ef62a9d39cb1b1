import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { messageKeyOf } from '../../common/message-keys.ts';
import { usePreferences } from '../ui/preferences.ts';
import en from './en.json';

type Bundle = Record<string, unknown>;

// A feature may keep its own strings beside its code in web/features/<feature>/i18n/{en,ar}.json; they are
// merged over the shared files, each feature under its own top-level keys. Arabic is its own chunk
// (./ar.ts), loaded by loadLanguage: it would add ~38 KB gzipped to every page's first load. Of the features'
// English, only what the entry itself shows is here (billing: the subscribe button of the dashboard guard); the
// rest (~20 KB gzipped) is ./en-features.ts, imported by the pages that show those features.
const entryFeatureBundles = import.meta.glob<Bundle>('../features/billing/i18n/en.json', {
  eager: true,
  import: 'default',
});

void i18next.use(initReactI18next).init({
  resources: { en: { translation: Object.assign({ ...en }, ...Object.values(entryFeatureBundles)) } },
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

// Spec messages (common/messages.ts) are shown verbatim in English. In other languages a catalogue message is
// translated by its key, "messages.<key>", with its values (common/message-keys.ts): the key of a text built on
// this page is known where it was built, and the server sends the key with each error it answers.

/** Translate a user-facing message that may come from the catalogue; any other text is shown as is. */
export function translateMessage(message: string): string {
  const keyed = messageKeyOf(message);
  if (!keyed) return message;
  const params: Record<string, unknown> = { ...keyed.params };
  // Plural messages read their number as `count` and show it formatted for the language.
  if (typeof params.count === 'number') params.formatted = params.count.toLocaleString(i18next.language);
  return i18next.t(`messages.${keyed.key}`, { ...params, defaultValue: message });
}
