// Word 4-shingles: how much two texts share their wording, for tests that check generated text is not
// the same fill-in pattern for unrelated inputs.

/** The set of 4-word runs of a text (lower case, punctuation dropped). */
export function shingles(text: string, size = 4): Set<string> {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + size <= words.length; i++) out.add(words.slice(i, i + size).join(' '));
  return out;
}

/** The share of the smaller set's shingles that the other text also has (0–1). */
export function sharedShingles(a: string, b: string, size = 4): number {
  const sa = shingles(a, size);
  const sb = shingles(b, size);
  const [small, large] = sa.size <= sb.size ? [sa, sb] : [sb, sa];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  return shared / small.size;
}
