import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKeyOf, rememberMessageKey } from '../../common/message-keys.ts';
import { MESSAGES } from '../../common/messages.ts';
import { loadLanguage, translateMessage } from './index.ts';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('messages are translated by their key, not by their English text', () => {
  beforeAll(async () => {
    await loadLanguage('ar');
    await i18next.changeLanguage('ar');
  });
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('a message built on the page with a value is translated with that value', () => {
    const english = MESSAGES.upload.tooLarge(10);
    const arabic = translateMessage(english);
    expect(arabic).not.toBe(english);
    expect(arabic).toContain('10');
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
  });

  it('a fixed message is translated', () => {
    const english = MESSAGES.auth.invalidCredentials;
    expect(translateMessage(english)).toMatch(/[\u0600-\u06FF]/);
  });

  it('a server text that came with a key is translated even if its English was reworded', () => {
    const reworded = 'Files over 25 MB cannot be uploaded here';
    expect(translateMessage(reworded)).toBe(reworded);
    rememberMessageKey(reworded, { key: 'upload.tooLarge', params: { mb: 25 } });
    const arabic = translateMessage(reworded);
    expect(arabic).toContain('25');
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
  });

  it('plural messages read their number and show it formatted', () => {
    const arabic = translateMessage(MESSAGES.credits.needMore(1200));
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
    expect(arabic).not.toContain('{{');
  });

  it('text that is not a catalogue message is shown as it is', () => {
    expect(messageKeyOf('Some vendor said no')).toBeUndefined();
    expect(translateMessage('Some vendor said no')).toBe('Some vendor said no');
  });
});

describe('Arabic message entries and the catalogue agree', () => {
  it('every {{value}} an Arabic message uses is a named parameter of that catalogue message', () => {
    const ar = JSON.parse(readFileSync(path.join(webDir, 'i18n/ar.json'), 'utf8')) as {
      messages: Record<string, Record<string, string>>;
    };
    const catalogue = MESSAGES as unknown as Record<string, Record<string, unknown>>;
    const problems: string[] = [];
    for (const [group, entries] of Object.entries(ar.messages)) {
      for (const [name, text] of Object.entries(entries)) {
        const baseName = name.replace(/_(zero|one|two|few|many|other)$/, '');
        const entry = catalogue[group]?.[baseName];
        if (entry === undefined) {
          problems.push(`${group}.${name}: no such catalogue message`);
          continue;
        }
        const used = [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
        const names: string[] =
          typeof entry === 'function' ? ((entry as { paramNames?: string[] }).paramNames ?? []) : [];
        // `formatted` is the plural messages' `count`, formatted for the language.
        const known = names.includes('count') ? [...names, 'formatted'] : names;
        for (const value of used) if (!known.includes(value)) problems.push(`${group}.${name}: {{${value}}}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
