import { MESSAGES } from '../../../common/messages.ts';
import { badRequest } from '../../platform/errors.ts';

/**
 * A checkout's return URL as a same-origin path ("/dashboard?topup=success"). Accepts a path starting
 * with one "/" or an absolute URL on the PUBLIC_URL origin; anything else (another host, "//evil",
 * "/\evil", javascript:, control characters) is refused with 400, so no checkout is an open redirect.
 */
export function toReturnPath(input: string, publicUrl: string): string {
  const value = input.trim();
  const refuse = () => badRequest(MESSAGES.payments.redirectNotAllowed);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) throw refuse();
  const origin = new URL(publicUrl).origin;
  let url: URL;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) throw refuse();
    url = new URL(value, origin);
  } else {
    try {
      url = new URL(value);
    } catch {
      throw refuse();
    }
  }
  if (url.origin !== origin) throw refuse();
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The absolute form Stripe needs for success_url and cancel_url. */
export function absoluteUrl(path: string, publicUrl: string): string {
  return new URL(path, `${publicUrl}/`).toString();
}
