import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest } from '../../platform/errors.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import type { AudioEngine, AudioResult, EngineCallOptions, MusicRequest, VoiceRequest } from '../types.ts';
import { runFfmpeg, type ToolConfig, withTempDir } from './ffmpeg.ts';
import { planMusic, renderMusic, wavBytes } from './music.ts';
import { resolveSeed } from './random.ts';
import { synthesiseSpeech } from './speech.ts';

/** Longest music the local engine writes (the spec offers 15, 30, 60 and 120 s). */
const MUSIC_MAX_SECONDS = 300;

interface Mp3 {
  data: Buffer;
  durationSeconds: number;
  sampleRate: number | null;
  channels: number | null;
}

/** The call's result from its encoded MP3, reported complete. */
function mp3Result(mp3: Mp3, options: EngineCallOptions | undefined, metadata: AudioResult['metadata']): AudioResult {
  options?.onProgress?.(1, 0);
  return { data: mp3.data, mimeType: 'audio/mpeg', durationSeconds: mp3.durationSeconds, metadata };
}

export class LocalAudioEngine implements AudioEngine {
  readonly name = 'local';

  constructor(private readonly config: ToolConfig) {}

  /** WAV (or any input ffmpeg reads) → MP3 via libmp3lame, probed for its real duration. */
  private async toMp3(
    wav: Buffer,
    durationSeconds: number,
    options: EngineCallOptions | undefined,
    range: [number, number],
    filters: string[] = [],
  ): Promise<Mp3> {
    return withTempDir(async (dir) => {
      const input = join(dir, 'in.wav');
      const out = join(dir, 'out.mp3');
      await writeFile(input, wav);
      const af = filters.length > 0 ? ['-af', filters.join(',')] : [];
      await runFfmpeg(
        this.config,
        ['-i', input, ...af, '-c:a', 'libmp3lame', '-b:a', '192k', '-id3v2_version', '3', out],
        {
          durationSeconds,
          signal: options?.signal,
          onProgress: options?.onProgress,
          progressRange: range,
        },
      );
      const probe = await probeMedia(this.config, out, options?.signal);
      if (!probe.audio) throw new Error('ffmpeg produced no audio stream');
      return {
        data: await readFile(out),
        durationSeconds: (probe.durationMs ?? 0) / 1000,
        sampleRate: probe.audio.sampleRate,
        channels: probe.audio.channels,
      };
    });
  }

  async music(request: MusicRequest, options?: EngineCallOptions): Promise<AudioResult> {
    const duration = request.durationSeconds;
    if (!(duration > 0 && duration <= MUSIC_MAX_SECONDS)) {
      throw badRequest(`Music duration must be between 1 and ${MUSIC_MAX_SECONDS} seconds`);
    }
    const seed = resolveSeed(`${request.prompt}|${request.genre ?? ''}|${request.mood ?? ''}`, request.seed);
    const plan = planMusic({
      prompt: request.prompt,
      genre: request.genre,
      mood: request.mood,
      instruments: request.instruments,
      seed,
    });
    options?.signal?.throwIfAborted();
    const { left, right } = renderMusic(plan, duration, seed);
    options?.onProgress?.(0.5);
    options?.signal?.throwIfAborted();
    const mp3 = await this.toMp3(wavBytes(left, right), duration, options, [0.5, 1]);
    return mp3Result(mp3, options, {
      engine: 'local',
      model: request.model,
      operation: 'music',
      seed,
      genre: plan.genre,
      mood: plan.mood,
      bpm: plan.bpm,
      key: plan.key,
      progression: plan.progression,
      instruments: plan.voices,
      instrumentsIgnored: plan.instrumentsIgnored,
      requestedDurationSeconds: duration,
      durationSeconds: mp3.durationSeconds,
      sampleRate: mp3.sampleRate,
      channels: mp3.channels,
    });
  }

  async voice(request: VoiceRequest, options?: EngineCallOptions): Promise<AudioResult> {
    const text = request.text.trim();
    if (!text) throw badRequest('Text is required for voice');
    const speech = await synthesiseSpeech({ text, voice: request.voice, language: request.language }, options?.signal);
    options?.signal?.throwIfAborted();
    options?.onProgress?.(0.6);
    // Normalise loudness a little and encode.
    const mp3 = await this.toMp3(
      speech.wav,
      speech.durationSeconds,
      options,
      [0.6, 1],
      ['highpass=f=70', 'alimiter=limit=0.95'],
    );
    return mp3Result(mp3, options, {
      engine: 'local',
      model: request.model,
      operation: 'voice',
      synthesiser: 'espeak-ng (WebAssembly)',
      voice: speech.voice,
      language: speech.language,
      wordsPerMinute: speech.wordsPerMinute,
      characters: text.length,
      durationSeconds: mp3.durationSeconds,
    });
  }
}
