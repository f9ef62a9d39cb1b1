import i18next from 'i18next';
import './index.ts';

// The English strings of every feature but those already in the entry (./index.ts), added when a page that shows
// them loads: every lazily loaded route page imports this module except the sign-up, verification, password reset,
// contact and not-found pages, which show none of them. Each feature's strings sit under its own top-level keys.
const featureBundles = import.meta.glob<Record<string, unknown>>(
  ['../features/*/i18n/en.json', '!../features/billing/i18n/en.json'],
  { eager: true, import: 'default' },
);

i18next.addResourceBundle('en', 'translation', Object.assign({}, ...Object.values(featureBundles)), true, true);
