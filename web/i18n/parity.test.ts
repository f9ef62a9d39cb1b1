import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Tree = { [key: string]: string | Tree | unknown[] };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return value && typeof value === 'object' && !Array.isArray(value) ? keysOf(value as Tree, name) : [name];
  });
}

const read = (file: string): Tree => JSON.parse(readFileSync(file, 'utf8'));

/** i18next plural forms (Arabic has six, English two) count as one key. */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseKeys = (tree: Tree) => new Set(keysOf(tree).map((key) => key.replace(PLURAL_SUFFIX, '')));

/** The shared bundles and every feature's own web/features/<feature>/i18n/{en,ar}.json. */
function bundles(): Array<{ label: string; en: Tree; ar: Tree }> {
  const list = [
    { label: 'web/i18n', en: read(path.join(webDir, 'i18n/en.json')), ar: read(path.join(webDir, 'i18n/ar.json')) },
  ];
  const features = path.join(webDir, 'features');
  for (const feature of readdirSync(features)) {
    const dir = path.join(features, feature, 'i18n');
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    if (files.includes('en.json') || files.includes('ar.json')) {
      list.push({
        label: `web/features/${feature}/i18n`,
        en: read(path.join(dir, 'en.json')),
        ar: read(path.join(dir, 'ar.json')),
      });
    }
  }
  return list;
}

// English shows the spec's wording verbatim from common/ (messages, studio action labels), so those keys
// exist in Arabic only.
const ENGLISH_FROM_SPEC = ['messages.', 'studio.actions.'];

describe('translations', () => {
  it('English and Arabic have the same keys in every bundle', () => {
    for (const { label, en, ar } of bundles()) {
      const enKeys = baseKeys(en);
      const arKeys = baseKeys(ar);
      expect({ label, missingInArabic: [...enKeys].filter((k) => !arKeys.has(k)) }).toEqual({
        label,
        missingInArabic: [],
      });
      expect({
        label,
        missingInEnglish: [...arKeys].filter((k) => !enKeys.has(k) && !ENGLISH_FROM_SPEC.some((p) => k.startsWith(p))),
      }).toEqual({
        label,
        missingInEnglish: [],
      });
    }
  });

  it('feature bundles never redefine a top-level key of another bundle', () => {
    const owners = new Map<string, string>();
    for (const { label, en } of bundles()) {
      for (const key of Object.keys(en)) {
        expect({ key, alsoIn: owners.get(key) }).toEqual({ key, alsoIn: undefined });
        owners.set(key, label);
      }
    }
  });
});

describe('spec messages in Arabic', () => {
  // The server and validators send these in English; translateMessage looks each one up under
  // messages.<group>.<name>. A message without an Arabic entry reaches an Arabic user in English.
  it('every fixed message of common/messages.ts in the groups the tools show has an Arabic entry', async () => {
    const { MESSAGES } = await import('../../common/messages.ts');
    const ar = read(path.join(webDir, 'i18n/ar.json')) as { messages: Record<string, Record<string, unknown>> };
    const missing: string[] = [];
    for (const group of ['multiReference', 'magicSelector'] as const) {
      for (const [name, value] of Object.entries(MESSAGES[group])) {
        if (typeof value === 'string' && typeof ar.messages[group]?.[name] !== 'string')
          missing.push(`${group}.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
