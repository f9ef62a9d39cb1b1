import { hasPhrase } from './prompt-words.ts';
import { Rng, rngFor } from './random.ts';

// A small seeded music synthesiser: PCM is written sample by sample from oscillators and noise
// (kick, snare, hats, bass, chords/pad, arpeggio/lead, piano, strings, guitar, bells) laid out on a
// beat grid by genre, tempo from genre × mood, key and progression from the seed.

const SAMPLE_RATE = 44_100;

type Voice =
  | 'drums'
  | 'bass'
  | 'pad'
  | 'chords'
  | 'piano'
  | 'arp'
  | 'lead'
  | 'strings'
  | 'guitar'
  | 'bells'
  | 'timpani';

interface GenreSpec {
  bpm: number;
  voices: Voice[];
  swing: number;
  /** Kick steps in a 16-step bar. */
  kick: number[];
  snare: number[];
  hats: number[];
}

const GENRES: Record<string, GenreSpec> = {
  electronic: {
    bpm: 124,
    voices: ['drums', 'bass', 'pad', 'arp'],
    swing: 0,
    kick: [0, 4, 8, 12],
    snare: [4, 12],
    hats: [2, 6, 10, 14],
  },
  'hip hop': {
    bpm: 90,
    voices: ['drums', 'bass', 'piano'],
    swing: 0.12,
    kick: [0, 7, 10],
    snare: [4, 12],
    hats: [0, 2, 4, 6, 8, 10, 12, 14],
  },
  cinematic: { bpm: 80, voices: ['strings', 'pad', 'timpani', 'bells'], swing: 0, kick: [], snare: [], hats: [] },
  ambient: { bpm: 70, voices: ['pad', 'bells'], swing: 0, kick: [], snare: [], hats: [] },
  pop: {
    bpm: 110,
    voices: ['drums', 'bass', 'chords', 'lead'],
    swing: 0,
    kick: [0, 8, 10],
    snare: [4, 12],
    hats: [0, 2, 4, 6, 8, 10, 12, 14],
  },
  rock: {
    bpm: 120,
    voices: ['drums', 'bass', 'guitar'],
    swing: 0,
    kick: [0, 6, 8],
    snare: [4, 12],
    hats: [0, 2, 4, 6, 8, 10, 12, 14],
  },
};

const MOOD_TEMPO: Record<string, number> = { upbeat: 1.12, calm: 0.82, epic: 1.0 };

const INSTRUMENT_WORDS: Array<[Voice, readonly string[]]> = [
  ['drums', ['drums', 'drum', 'percussion', 'beat', 'beats']],
  ['bass', ['bass', 'sub', '808']],
  ['pad', ['pad', 'pads', 'synth pad', 'atmosphere']],
  ['chords', ['synth', 'synths', 'keys', 'keyboard', 'organ', 'chords']],
  ['piano', ['piano', 'rhodes', 'electric piano']],
  ['arp', ['arp', 'arpeggio', 'arpeggiator', 'sequencer']],
  ['lead', ['lead', 'melody', 'flute', 'whistle', 'vocal', 'vocals', 'saxophone', 'sax', 'trumpet']],
  ['strings', ['strings', 'violin', 'violins', 'cello', 'orchestra', 'orchestral', 'choir']],
  ['guitar', ['guitar', 'guitars', 'electric guitar', 'acoustic guitar']],
  ['bells', ['bells', 'bell', 'chimes', 'glockenspiel', 'harp', 'music box']],
  ['timpani', ['timpani', 'taiko', 'toms', 'war drums']],
];

export interface MusicPlan {
  genre: string;
  mood: string;
  bpm: number;
  key: string;
  scale: 'major' | 'minor';
  progression: number[];
  voices: Voice[];
  instrumentsIgnored: string[];
}

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

function normaliseGenre(genre: string | undefined, prompt: string): string {
  const candidates = [genre ?? '', prompt];
  for (const text of candidates) {
    for (const g of Object.keys(GENRES))
      if (hasPhrase(text, g) || hasPhrase(text, g.replace(' ', '-')) || hasPhrase(text, g.replace(' ', ''))) return g;
    if (/edm|techno|house|trance|synthwave/i.test(text)) return 'electronic';
    if (/trap|rap|lo-?fi|lofi/i.test(text)) return 'hip hop';
    if (/orchestral|soundtrack|film score|trailer/i.test(text)) return 'cinematic';
    if (/chill|meditation|drone/i.test(text)) return 'ambient';
    if (/metal|punk|grunge/i.test(text)) return 'rock';
  }
  return 'pop';
}

function normaliseMood(mood: string | undefined, prompt: string): string {
  for (const text of [mood ?? '', prompt]) {
    for (const m of Object.keys(MOOD_TEMPO)) if (hasPhrase(text, m)) return m;
    if (/happy|energetic|fun|dance|bright/i.test(text)) return 'upbeat';
    if (/relax|peaceful|soft|gentle|sleep|chill/i.test(text)) return 'calm';
    if (/heroic|dramatic|powerful|trailer|intense|dark/i.test(text)) return 'epic';
  }
  return 'upbeat';
}

export function planMusic(input: {
  prompt: string;
  genre?: string;
  mood?: string;
  instruments?: string[];
  seed: number;
}): MusicPlan {
  const genre = normaliseGenre(input.genre, input.prompt);
  const mood = normaliseMood(input.mood, input.prompt);
  const spec = GENRES[genre];
  const rng = rngFor(`${input.prompt}|${genre}|${mood}`, input.seed, 'music');
  const bpmMatch = /(\d{2,3})\s*bpm/i.exec(input.prompt);
  const bpm = bpmMatch
    ? Math.max(50, Math.min(200, Number(bpmMatch[1])))
    : Math.round(spec.bpm * (MOOD_TEMPO[mood] ?? 1) + rng.range(-4, 4));
  const scale: 'major' | 'minor' =
    mood === 'upbeat' ? 'major' : mood === 'epic' ? 'minor' : rng.chance(0.5) ? 'major' : 'minor';
  const root = rng.int(0, 11);
  const progressions =
    scale === 'major'
      ? [
          [0, 4, 5, 3],
          [0, 5, 3, 4],
          [0, 3, 0, 4],
          [5, 3, 0, 4],
        ]
      : [
          [0, 5, 2, 6],
          [0, 3, 4, 0],
          [0, 6, 5, 6],
          [0, 5, 3, 4],
        ];
  const progression = rng.pick(progressions);
  const ignored: string[] = [];
  let voices: Voice[] = [...spec.voices];
  const asked = (input.instruments ?? []).filter((i) => i.trim());
  if (asked.length > 0) {
    const chosen = new Set<Voice>();
    for (const name of asked) {
      const hit = INSTRUMENT_WORDS.find(([, words]) => words.some((w) => hasPhrase(name, w)));
      if (hit) chosen.add(hit[0]);
      else ignored.push(name);
    }
    if (chosen.size > 0) voices = [...chosen];
  } else {
    for (const [voice, words] of INSTRUMENT_WORDS)
      if (words.some((w) => hasPhrase(input.prompt, w)) && !voices.includes(voice)) voices.push(voice);
  }
  if (mood === 'epic' && genre === 'cinematic' && !voices.includes('timpani')) voices.push('timpani');
  return {
    genre,
    mood,
    bpm,
    key: `${NOTE_NAMES[root]} ${scale}`,
    scale,
    progression,
    voices,
    instrumentsIgnored: ignored,
  };
}

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

class Mixer {
  readonly left: Float32Array;
  readonly right: Float32Array;

  constructor(readonly length: number) {
    this.left = new Float32Array(length);
    this.right = new Float32Array(length);
  }

  /** Adds `n` samples from `fn(i)` at `start`, panned (-1 left … 1 right). */
  add(start: number, n: number, pan: number, fn: (i: number) => number): void {
    const l = Math.cos(((pan + 1) * Math.PI) / 4);
    const r = Math.sin(((pan + 1) * Math.PI) / 4);
    const s0 = Math.max(0, start);
    const end = Math.min(this.length, start + n);
    for (let s = s0; s < end; s++) {
      const v = fn(s - start);
      this.left[s] += v * l;
      this.right[s] += v * r;
    }
  }
}

const TAU = Math.PI * 2;
const SINE_SIZE = 8192;
const SINE_TABLE = Float32Array.from({ length: SINE_SIZE }, (_, i) => Math.sin((TAU * i) / SINE_SIZE));
/** sin(2π·cycles) from a table (the synth's hot path). */
const sine = (cycles: number) => SINE_TABLE[Math.floor((cycles - Math.floor(cycles)) * SINE_SIZE)];
const saw = (phase: number) => 2 * (phase - Math.floor(phase + 0.5));
const square = (phase: number) => (phase - Math.floor(phase) < 0.5 ? 1 : -1);
const tri = (phase: number) => 1 - 4 * Math.abs(phase - Math.floor(phase + 0.5));

/** Attack/release envelope over n samples. */
function env(i: number, n: number, attack: number, release: number): number {
  const a = attack > 0 ? Math.min(1, i / attack) : 1;
  const r = release > 0 ? Math.min(1, (n - i) / release) : 1;
  return Math.max(0, Math.min(a, r));
}

/** What every voice of one bar draws on: the song's grid, key and noise, and this bar's chord. */
interface Bar {
  plan: MusicPlan;
  mix: Mixer;
  rng: Rng;
  noise: Float32Array;
  steps: GenreSpec;
  scale: number[];
  root: number;
  beat: number;
  stepLen: number;
  /** Seconds to samples. */
  at: (seconds: number) => number;
  has: (voice: Voice) => boolean;
  index: number;
  t0: number;
  barStart: number;
  barLen: number;
  degree: number;
  chord: number[];
}

function addDrums({ mix, rng, noise, steps, stepLen, at, t0 }: Bar): void {
  for (let s = 0; s < 16; s++) {
    const swing = s % 2 === 1 ? steps.swing * stepLen : 0;
    const st = at(t0 + s * stepLen + swing);
    const kick = steps.kick.length ? steps.kick : [0, 8];
    if (kick.includes(s)) {
      const n = at(0.35);
      let ph = 0;
      mix.add(st, n, 0, (i) => {
        const f = 45 + 110 * Math.exp(-i / (SAMPLE_RATE * 0.03));
        ph += f / SAMPLE_RATE;
        return sine(ph) * Math.exp(-i / (SAMPLE_RATE * 0.12)) * 0.9;
      });
    }
    if ((steps.snare.length ? steps.snare : [4, 12]).includes(s)) {
      const n = at(0.2);
      mix.add(
        st,
        n,
        0.05,
        (i) =>
          (noise[i % noise.length] * 0.5 + sine((190 * i) / SAMPLE_RATE) * 0.3) *
          Math.exp(-i / (SAMPLE_RATE * 0.05)) *
          0.6,
      );
    }
    if ((steps.hats.length ? steps.hats : [2, 6, 10, 14]).includes(s)) {
      const n = at(0.05);
      const off = rng.int(0, 20_000);
      mix.add(
        st,
        n,
        0.35,
        (i) =>
          (noise[(i + off) % noise.length] - noise[(i + off + 1) % noise.length]) *
          Math.exp(-i / (SAMPLE_RATE * 0.012)) *
          0.18,
      );
    }
  }
}

function addTimpani({ mix, scale, root, at, barStart, degree }: Bar): void {
  const f = midiHz(root - 12 + scale[degree % 7]);
  mix.add(barStart, at(1.2), -0.1, (i) => sine((f * i) / SAMPLE_RATE) * Math.exp(-i / (SAMPLE_RATE * 0.35)) * 0.55);
}

function addBass({ plan, mix, stepLen, at, t0, chord }: Bar): void {
  const f = midiHz(chord[0] - 12);
  const pattern = plan.genre === 'hip hop' ? [0, 7, 10] : plan.genre === 'electronic' ? [2, 6, 10, 14] : [0, 4, 8, 12];
  for (const s of pattern) {
    const n = at(stepLen * (plan.genre === 'hip hop' ? 3 : 1.8));
    let lp = 0;
    mix.add(at(t0 + s * stepLen), n, 0, (i) => {
      const raw = plan.genre === 'hip hop' ? sine((f * i) / SAMPLE_RATE) : saw((f * i) / SAMPLE_RATE);
      lp += 0.08 * (raw - lp);
      return lp * env(i, n, 200, 800) * 0.5;
    });
  }
}

/** Strings when the plan has them, else the pad: held chords, detuned saws through a low-pass. */
function addPadOrStrings({ mix, at, has, barStart, barLen, chord }: Bar): void {
  const strings = has('strings');
  for (const [k, note] of chord.entries()) {
    const f = midiHz(note + (strings ? 0 : 12));
    let lp = 0;
    const detune = 1.003 + k * 0.001;
    const len = barLen + at(0.3);
    const attack = at(strings ? 0.4 : 0.8);
    const release = at(0.5);
    mix.add(barStart, len, k === 0 ? -0.4 : k === 1 ? 0.4 : 0, (i) => {
      const ph = (f * i) / SAMPLE_RATE;
      const raw = saw(ph) + saw(ph * detune);
      lp += (strings ? 0.05 : 0.025) * (raw - lp);
      const vib = strings ? 1 + 0.15 * sine((5 * i) / SAMPLE_RATE) : 1;
      return lp * env(i, len, attack, release) * 0.11 * vib;
    });
  }
}

/** Guitar when the plan has it, else synth chords: stabs on the bar's off-beats. */
function addChordsOrGuitar({ mix, stepLen, at, has, t0, chord }: Bar): void {
  const guitar = has('guitar');
  const hits = guitar ? [0, 3, 6, 8, 11, 14] : [0, 6, 8, 14];
  for (const s of hits) {
    const n = at(stepLen * (guitar ? 2.5 : 4));
    const notes = guitar ? [chord[0] - 12, chord[0] - 5, chord[0]] : chord;
    const freqs = notes.map(midiHz);
    const wave = guitar ? saw : square;
    const release = at(0.05);
    mix.add(at(t0 + s * stepLen), n, guitar ? -0.3 : 0.2, (i) => {
      let v = 0;
      for (const f of freqs) v += wave((f * i) / SAMPLE_RATE);
      v /= notes.length;
      if (guitar) v = Math.tanh(v * 4) * 0.5;
      return v * env(i, n, 80, release) * Math.exp(-i / (SAMPLE_RATE * 0.4)) * (guitar ? 0.35 : 0.16);
    });
  }
}

function addPiano({ mix, beat, stepLen, at, t0, chord }: Bar): void {
  for (const s of [0, 6, 10]) {
    const n = at(beat * 2);
    const freqs = chord.map((note) => midiHz(note + 12));
    const release = at(0.05);
    mix.add(at(t0 + s * stepLen), n, 0.15, (i) => {
      let v = 0;
      for (const f of freqs) v += sine((f * i) / SAMPLE_RATE) + 0.3 * sine((2 * f * i) / SAMPLE_RATE);
      return (v / freqs.length) * Math.exp(-i / (SAMPLE_RATE * 0.5)) * env(i, n, 30, release) * 0.28;
    });
  }
}

function addArp({ mix, stepLen, at, t0, chord }: Bar): void {
  for (let s = 0; s < 16; s++) {
    const note = chord[s % 3] + 12 * (1 + Math.floor(s / 8));
    const f = midiHz(note);
    const n = at(stepLen * 0.9);
    mix.add(
      at(t0 + s * stepLen),
      n,
      s % 2 ? 0.5 : -0.5,
      (i) => square((f * i) / SAMPLE_RATE) * env(i, n, 40, at(0.04)) * Math.exp(-i / (SAMPLE_RATE * 0.09)) * 0.09,
    );
  }
}

function addLead({ mix, rng, scale, root, beat, at, t0, degree }: Bar): void {
  const melody = [0, 2, 4, 2, 1, 3, 4, 6].map((x) => rng.int(0, 1) + x);
  for (let q = 0; q < 8; q++) {
    if (rng.chance(0.25)) continue;
    const idx = degree + melody[q];
    const note = root + 12 + scale[idx % 7] + 12 * Math.floor(idx / 7);
    const f = midiHz(note);
    const n = at(beat * 0.5 * 0.95);
    mix.add(at(t0 + q * beat * 0.5), n, 0.1, (i) => {
      const vib = 1 + 0.004 * sine((5.5 * i) / SAMPLE_RATE);
      return tri((f * vib * i) / SAMPLE_RATE) * env(i, n, 300, at(0.08)) * 0.2;
    });
  }
}

function addBells({ mix, rng, beat, at, t0, chord }: Bar): void {
  for (let q = 0; q < 4; q++) {
    if (!rng.chance(0.5)) continue;
    const note = chord[rng.int(0, 2)] + 24;
    const f = midiHz(note);
    const n = at(1.6);
    mix.add(
      at(t0 + q * beat),
      n,
      rng.range(-0.6, 0.6),
      (i) =>
        (sine((f * i) / SAMPLE_RATE) + 0.4 * sine((f * 2.76 * i) / SAMPLE_RATE)) *
        Math.exp(-i / (SAMPLE_RATE * 0.45)) *
        0.09,
    );
  }
}

/**
 * One bar of every voice the plan has, in a fixed order: the voices draw from the one seeded generator,
 * so the order is part of the output.
 */
function addBar(bar: Bar, intro: number): void {
  const { plan, rng, has, index: b } = bar;
  if (has('drums') && b >= intro) addDrums(bar);
  if (has('timpani') && (b % 2 === 0 || plan.mood === 'epic')) addTimpani(bar);
  if (has('bass') && b >= intro) addBass(bar);
  if (has('pad') || has('strings')) addPadOrStrings(bar);
  if (has('chords') || has('guitar')) addChordsOrGuitar(bar);
  if (has('piano')) addPiano(bar);
  if (has('arp') && b >= intro) addArp(bar);
  if (has('lead') && b >= intro) addLead(bar);
  if (has('bells') && rng.chance(0.8)) addBells(bar);
}

/** Master: soft clip, normalise to -1 dBFS, fade in/out. */
function master(mix: Mixer, durationSeconds: number, at: (seconds: number) => number): void {
  const total = mix.length;
  let peak = 1e-6;
  for (let i = 0; i < total; i++) {
    mix.left[i] = Math.tanh(mix.left[i]);
    mix.right[i] = Math.tanh(mix.right[i]);
    peak = Math.max(peak, Math.abs(mix.left[i]), Math.abs(mix.right[i]));
  }
  const gain = 0.89 / peak;
  const fadeIn = Math.min(at(0.05), total);
  const fadeOut = Math.min(at(Math.min(2, durationSeconds / 5)), total);
  for (let i = 0; i < total; i++) {
    const f = Math.min(1, i / Math.max(1, fadeIn), (total - i) / Math.max(1, fadeOut));
    mix.left[i] *= gain * f;
    mix.right[i] *= gain * f;
  }
}

/** Renders the plan to stereo float PCM of exactly durationSeconds. */
export function renderMusic(
  plan: MusicPlan,
  durationSeconds: number,
  seed: number,
): { left: Float32Array; right: Float32Array } {
  const total = Math.round(durationSeconds * SAMPLE_RATE);
  const mix = new Mixer(total);
  const rng = new Rng(seed ^ 0x5bd1e995);
  const beat = 60 / plan.bpm;
  const stepLen = beat / 4;
  const bar = beat * 4;
  const steps = GENRES[plan.genre];
  const scale = plan.scale === 'major' ? MAJOR : MINOR;
  const root = 48 + NOTE_NAMES.indexOf(plan.key.split(' ')[0]);
  const chordNotes = (degree: number) =>
    [0, 2, 4].map((k) => {
      const idx = degree + k;
      return root + scale[idx % 7] + 12 * Math.floor(idx / 7);
    });
  const bars = Math.ceil(durationSeconds / bar);
  const noise = new Float32Array(SAMPLE_RATE);
  for (let i = 0; i < noise.length; i++) noise[i] = rng.next() * 2 - 1;
  const at = (seconds: number) => Math.round(seconds * SAMPLE_RATE);
  const has = (v: Voice) => plan.voices.includes(v);
  const intro = plan.voices.length > 2 ? 1 : 0;
  const song = { plan, mix, rng, noise, steps, scale, root, beat, stepLen, at, has };

  for (let b = 0; b < bars; b++) {
    const t0 = b * bar;
    const degree = plan.progression[b % plan.progression.length];
    addBar({ ...song, index: b, t0, barStart: at(t0), barLen: at(bar), degree, chord: chordNotes(degree) }, intro);
  }
  master(mix, durationSeconds, at);
  return { left: mix.left, right: mix.right };
}

/** 16-bit PCM stereo WAV. */
export function wavBytes(left: Float32Array, right: Float32Array, sampleRate = SAMPLE_RATE): Buffer {
  const n = left.length;
  const buf = Buffer.alloc(44 + n * 4);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + n * 4, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(2, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 4, 28);
  buf.writeUInt16LE(4, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(n * 4, 40);
  const pcm = new Int16Array(buf.buffer, buf.byteOffset + 44, n * 2);
  for (let i = 0; i < n; i++) {
    pcm[i * 2] = Math.round(Math.max(-1, Math.min(1, left[i])) * 32767);
    pcm[i * 2 + 1] = Math.round(Math.max(-1, Math.min(1, right[i])) * 32767);
  }
  return buf;
}
