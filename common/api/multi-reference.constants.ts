// Multi-Reference (canvas spec 2, 5, 7, 9). Named by the spec; server and web import them.

export const MULTI_REFERENCE = {
  maxFiles: 8,
  imageMaxMb: 10,
  videoMaxMb: 100,
  videoExtensions: ['mp4', 'mov', 'webm', 'avi'],
  variations: { min: 1, max: 4, default: 1 },
  /** The panel's sliders (percent); the API takes weight and strength as 0–1. */
  weight: { min: 10, max: 100, default: 50 },
  strength: { min: 10, max: 100, default: 75 },
  referenceTypes: ['style', 'composition', 'character', 'lighting', 'color'],
  blendModes: ['weighted', 'random', 'sequential', 'layered', 'advanced-composition', 'iterative-refinement'],
  compositionModes: [
    'multi-image-composition',
    'iterative-refinement',
    'advanced-composition',
    'high-fidelity-preservation',
  ],
  qualities: ['draft', 'standard', 'premium'],
  aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
  defaults: {
    blendMode: 'weighted',
    aspectRatio: '1:1',
    quality: 'standard',
    compositionMode: 'multi-image-composition',
    preserveDetails: true,
  },
  model: 'nanobana',
  /**
   * Video-to-video mode (request `type: 'video-to-video'`): the first video reference restyled by the
   * image references, with Runway gen4_aleph (local ffmpeg engine without a key). Each variation
   * costs PRICES.videoRunway.
   */
  videoToVideo: { type: 'video-to-video', model: 'runway-gen4_aleph' },
} as const;
