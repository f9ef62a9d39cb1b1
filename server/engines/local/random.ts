// Seeded randomness for the local engines: the same prompt and seed always give the same output.

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic random source (mulberry32) with a few helpers. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.range(min, maxInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length) % items.length];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Approximately normal (mean 0, sd 1), from the sum of uniforms. */
  gauss(): number {
    return this.next() + this.next() + this.next() + this.next() - 2;
  }
}

/** The seed actually used: the caller's, else one derived from the prompt. */
export function resolveSeed(prompt: string, seed: number | undefined): number {
  if (seed !== undefined && Number.isFinite(seed)) return Math.abs(Math.trunc(seed)) >>> 0;
  return hashString(prompt.trim().toLowerCase());
}

/** An Rng mixing the prompt with the seed, so different prompts differ even under one seed. */
export function rngFor(prompt: string, seed: number, salt = ''): Rng {
  return new Rng(hashString(`${salt}|${prompt.trim().toLowerCase()}|${seed}`));
}
