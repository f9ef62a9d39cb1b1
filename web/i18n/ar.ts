import ar from './ar.json';

// The Arabic strings (shared file + each feature's web/features/<feature>/i18n/ar.json), a chunk of its
// own: see loadLanguage in ./index.ts.
const featureBundles = import.meta.glob<Record<string, unknown>>('../features/*/i18n/ar.json', {
  eager: true,
  import: 'default',
});

export const arabicStrings: Record<string, unknown> = Object.assign({ ...ar }, ...Object.values(featureBundles));
