// What Facebook's and Instagram's connectors share of Meta's Graph platform.

/**
 * Seconds until Meta lets the app or account call again: Retry-After when sent, else the largest
 * `estimated_time_to_regain_access` (minutes) of X-Business-Use-Case-Usage; undefined when neither says.
 */
export function metaRetryAfterSeconds(headers: Headers): number | undefined {
  const after = Number(headers.get('retry-after'));
  if (Number.isFinite(after) && after > 0) return after;
  const usage = headers.get('x-business-use-case-usage');
  if (!usage) return undefined;
  try {
    const parsed = JSON.parse(usage) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>;
    const minutes = Math.max(
      0,
      ...Object.values(parsed)
        .flat()
        .map((u) => Number(u.estimated_time_to_regain_access) || 0),
    );
    return minutes > 0 ? minutes * 60 : undefined;
  } catch {
    return undefined;
  }
}
