import { fileURLToPath } from 'node:url';
import { badRequest } from '../../platform/errors.ts';
import { runTool } from '../../platform/media/tools.ts';
import { hashString } from './random.ts';

// Voice synthesis with espeak-ng compiled to WebAssembly (npm `espeak-ng`, installed by `npm ci`, no
// native binary needed). Each call runs espeak-runner.mjs — espeak-ng once, as a separate Node
// program (~0.5 s) — and takes the WAV from its stdout.

/** Longest text one voice call speaks. */
const VOICE_MAX_CHARACTERS = 5000;

const LANGUAGES: Record<string, string> = {
  english: 'en-us',
  'english (us)': 'en-us',
  'english (uk)': 'en-gb',
  british: 'en-gb',
  american: 'en-us',
  french: 'fr-fr',
  spanish: 'es',
  german: 'de',
  italian: 'it',
  portuguese: 'pt-br',
  brazilian: 'pt-br',
  dutch: 'nl',
  swedish: 'sv',
  norwegian: 'nb',
  danish: 'da',
  finnish: 'fi',
  polish: 'pl',
  czech: 'cs',
  greek: 'el',
  turkish: 'tr',
  russian: 'ru',
  ukrainian: 'uk',
  arabic: 'ar',
  hebrew: 'he',
  hindi: 'hi',
  bengali: 'bn',
  urdu: 'ur',
  chinese: 'cmn',
  mandarin: 'cmn',
  cantonese: 'yue',
  japanese: 'ja',
  korean: 'ko',
  vietnamese: 'vi',
  indonesian: 'id',
  malay: 'ms',
  thai: 'th',
  romanian: 'ro',
  hungarian: 'hu',
  swahili: 'sw',
};

/** espeak-ng voice variants usable in this build (the klatt ones need a synthesiser it lacks). */
const VARIANTS = [
  'm1',
  'm2',
  'm3',
  'm4',
  'm5',
  'm6',
  'm7',
  'f1',
  'f2',
  'f3',
  'f4',
  'f5',
  'Alicia',
  'Andy',
  'announcer',
  'belinda',
  'david',
  'edward',
  'john',
  'linda',
  'max',
  'paul',
  'robert',
  'steph',
  'whisper',
  'grandma',
  'grandpa',
];

function languageCode(language: string | undefined): string {
  if (!language) return 'en-us';
  const l = language.trim().toLowerCase();
  if (LANGUAGES[l]) return LANGUAGES[l];
  if (/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(l)) return l === 'en' ? 'en-us' : l === 'fr' ? 'fr-fr' : l;
  return 'en-us';
}

function variantFor(voice: string | undefined): string {
  if (!voice) return 'm3';
  const v = voice.trim().toLowerCase();
  const exact = VARIANTS.find((x) => x.toLowerCase() === v);
  if (exact) return exact;
  if (/\b(female|woman|girl|lady|she)\b/.test(v)) return 'f3';
  if (/\b(male|man|boy|guy|he)\b/.test(v)) return 'm3';
  if (/whisper/.test(v)) return 'whisper';
  if (/narrat|announc/.test(v)) return 'announcer';
  // Any other name: a stable variant of its own, so two personas' voices differ.
  return VARIANTS[hashString(v) % VARIANTS.length];
}

export interface Speech {
  wav: Buffer;
  durationSeconds: number;
  voice: string;
  language: string;
  wordsPerMinute: number;
}

const RUNNER = fileURLToPath(new URL('./espeak-runner.mjs', import.meta.url));

/** One espeak-ng run in a child Node process; null when it wrote no audio (e.g. an unknown voice). */
async function run(
  voice: string,
  wpm: number,
  text: string,
  signal?: AbortSignal,
): Promise<{ wav: Buffer | null; error?: string }> {
  try {
    const { stdout } = await runTool(process.execPath, [RUNNER, voice, String(wpm), text], {
      signal,
      timeoutMs: 60_000,
    });
    return { wav: stdout.length > 44 ? stdout : null };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { wav: null, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function synthesiseSpeech(
  input: { text: string; voice?: string; language?: string },
  signal?: AbortSignal,
): Promise<Speech> {
  const text = input.text.replace(/\s+/g, ' ').trim();
  if (!text) throw badRequest('Text is required for voice');
  if (text.length > VOICE_MAX_CHARACTERS)
    throw badRequest(`Voice text is limited to ${VOICE_MAX_CHARACTERS} characters`);
  const language = languageCode(input.language);
  const variant = variantFor(input.voice);
  const wpm = /slow/i.test(input.voice ?? '') ? 135 : /fast/i.test(input.voice ?? '') ? 195 : 165;
  let voiceId = `${language}+${variant}`;
  let result = await run(voiceId, wpm, text, signal);
  if (!result.wav && language !== 'en-us') {
    // Unknown language code: fall back to English rather than fail the request.
    voiceId = `en-us+${variant}`;
    result = await run(voiceId, wpm, text, signal);
  }
  if (!result.wav) throw new Error(`espeak-ng produced no audio: ${result.error ?? 'empty output'}`);
  const wav = result.wav;
  // A canonical 44-byte WAV header; the length comes from the byte count.
  const bytesPerSecond = wav.readUInt32LE(28) || wav.readUInt32LE(24) * 2;
  const durationSeconds = (wav.length - 44) / bytesPerSecond;
  return { wav, durationSeconds, voice: voiceId, language, wordsPerMinute: wpm };
}
