/**
 * The studio's query-string parser: WHATWG decoding (URLSearchParams), so a malformed escape becomes
 * U+FFFD and `%00` a NUL that the input guard refuses, where the default parser passed the raw escapes on
 * as text. A repeated key gives an array, as before.
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(query)) {
    const existing = parsed[key];
    if (existing === undefined) parsed[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else parsed[key] = [existing, value];
  }
  return parsed;
}
