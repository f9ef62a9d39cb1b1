import i18next from 'i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';

// Publishing messages (common/messages.ts, verbatim in English) translated from this feature's own strings,
// "publishing.messages.<name>"; "X is not connected" is matched by pattern.
let names: Map<string, string> | undefined;

export function socialMessage(message: string): string {
  if (i18next.language === 'en') return message;
  names ??= new Map(
    Object.entries(MESSAGES.social).flatMap(([name, value]) =>
      typeof value === 'string' ? [[value, name] as const] : [],
    ),
  );
  const name = names.get(message);
  if (name) return i18next.t(`publishing.messages.${name}`, { defaultValue: message });
  const notConnected = /^(.+) is not connected$/.exec(message);
  if (notConnected) {
    const platform = notConnected[1] ?? '';
    const label = i18next.exists(`publishing.platforms.${platform}`)
      ? i18next.t(`publishing.platforms.${platform}`)
      : platform;
    return i18next.t('publishing.messages.platformNotConnected', { platform: label, defaultValue: message });
  }
  return translateMessage(message);
}

/** The text to show for a failed call: the server's message, else `fallback` (both translated). */
export function errorText(error: unknown, fallback: string = MESSAGES.social.unknownError): string {
  if (error instanceof ApiError && error.isNetwork) return socialMessage(MESSAGES.social.networkError);
  // A post the networks cannot take is refused with one line per problem (common/rules/social-media.ts).
  if (error instanceof ApiError && error.message) return error.message.split('\n').map(socialMessage).join('\n');
  return socialMessage(fallback);
}
