import i18next from 'i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';

// Campaign messages (common/messages.ts, shown verbatim in English) translated from this feature's own
// strings, "campaigns.messages.<name>". Messages with a figure in them are matched by pattern.
const PATTERNS: ReadonlyArray<{ key: string; pattern: RegExp; param: string }> = [
  { key: 'insufficientFunds', pattern: /^Insufficient funds\. Need \$([\d.,]+) more\.$/, param: 'need' },
  { key: 'budgetMin', pattern: /^The budget must be at least €([\d.,]+)$/, param: 'min' },
  { key: 'budgetMax', pattern: /^The budget can be at most €([\d.,]+)$/, param: 'max' },
  { key: 'rateMax', pattern: /^Your rate can be at most €([\d.,]+)$/, param: 'max' },
  {
    key: 'budgetNotCovered',
    pattern: /^The campaign budget left \(€([\d.,]+)\) does not cover this rate$/,
    param: 'available',
  },
  { key: 'tooManyMaterials', pattern: /^A campaign can have at most (\d+) materials$/, param: 'max' },
];

let names: Map<string, string> | undefined;

export function campaignMessage(message: string): string {
  if (i18next.language !== 'ar') return message;
  names ??= new Map(
    Object.entries(MESSAGES.campaigns).flatMap(([name, value]) =>
      typeof value === 'string' ? [[value, name] as const] : [],
    ),
  );
  const name = names.get(message);
  if (name) return i18next.t(`campaigns.messages.${name}`, { defaultValue: message });
  for (const { key, pattern, param } of PATTERNS) {
    const match = message.match(pattern);
    if (match) return i18next.t(`campaigns.messages.${key}`, { [param]: match[1], defaultValue: message });
  }
  return translateMessage(message);
}

/** The text to show for a failed call: the server's message, else `fallback` (both translated). */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return campaignMessage(error.message);
  return campaignMessage(fallback);
}
