// What each named video-enhancement model does locally on top of the quality levels (denoise, sharpen,
// enhance → hqdn3d, unsharp, eq in upscale.ts): real ffmpeg filters that match the model's job, so
// each model is measurably its own (docs/engines.md, "Video enhancement models"). Filters in `source`
// run before the resize (cheaper, and noise is not magnified); `output` after it.

export interface VideoCharacter {
  source: string[];
  output: string[];
  steps: string[];
  /** Raised frame rates are always motion-compensated (Apollo). */
  motion?: boolean;
}

const CHARACTERS: Record<string, VideoCharacter> = {
  // General purpose: the balanced levels alone.
  proteus: { source: [], output: [], steps: [] },
  // Noisy or compressed sources: block edges smoothed, then temporal averaging of the grain.
  artemis: {
    source: ['deblock=filter=strong:block=8', 'atadenoise=0a=0.06:0b=0.12:1a=0.06:1b=0.12:2a=0.06:2b=0.12'],
    output: [],
    steps: ['deblock', 'atadenoise'],
  },
  // Clean and CG sources: a second, fine-radius sharpening for crisp outlines.
  gaia: { source: [], output: ['unsharp=3:3:1.2:3:3:0.4'], steps: ['fine-unsharp'] },
  // Motion-compensated in-between frames.
  apollo: { source: [], output: [], steps: [], motion: true },
  // Blended in-between frames (the default interpolation).
  chronos: { source: [], output: [], steps: [] },
  // Grainy low light: strong temporal denoise and the shadows lifted.
  nyx: {
    source: ['atadenoise=0a=0.08:0b=0.16:1a=0.08:1b=0.16:2a=0.08:2b=0.16', 'hqdn3d=6:5:10:8'],
    output: ["curves=all='0/0 0.15/0.26 0.5/0.62 1/1'"],
    steps: ['atadenoise', 'strong-hqdn3d', 'shadow-lift'],
  },
  // Soft footage: wide-radius sharpening, contrast and colour.
  iris: {
    source: [],
    output: ['unsharp=7:7:1.4:5:5:0.3', 'eq=contrast=1.08', 'vibrance=intensity=0.35'],
    steps: ['wide-unsharp', 'contrast', 'vibrance'],
  },
};

export function videoCharacter(model: string): VideoCharacter {
  return CHARACTERS[model.toLowerCase()] ?? { source: [], output: [], steps: [] };
}
