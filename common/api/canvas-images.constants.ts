// The multi-image canvas and its image calls (canvas spec 2, 4, 7, 9). Named by the spec; server and web import them.
import { UPLOAD_STORAGE_CEILINGS_MB } from './generation.constants.ts';

/** The multi-image canvas view: limits, placement grid, zoom range and image formats. */
export const CANVAS = {
  maxImages: 1000,
  newImage: { width: 300, height: 200 },
  /** Three columns fit the 1200 px element (50 + 2 × 350 + 300 = 1050). */
  grid: { stepX: 350, stepY: 300, offset: 50, columns: 3 },
  zoom: { min: 0.1, max: 5, wheelOut: 0.9, wheelIn: 1.1 },
  element: { width: 1200, height: 800 },
  /** An enhanced image is placed this far right of its source at this size. */
  enhanced: { offsetX: 2150, width: 1920, height: 1080 },
  formats: {
    '4K|TV': { model: 'seedream4', aspectRatio: '16:9', size: '4K', width: 3840, height: 2160 },
    '2K|Mobile': { model: 'nanobana', aspectRatio: '1:1', size: '2K', width: 2048, height: 2048 },
  },
} as const;

export type CanvasFormat = keyof typeof CANVAS.formats;

/** The NanoBana and multi-composition calls: input limits, steps and defaults. */
export const CANVAS_IMAGES = {
  /** Largest decoded input image, in MB (spec 5: images max 10 MB). */
  inputMaxMb: 10,
  /**
   * Largest of the user's own stored images taken by URL, in MB: the image upload ceiling, so every canvas
   * image (a 4K PNG is over 10 MB) can be edited by reference.
   */
  storedInputMaxMb: UPLOAD_STORAGE_CEILINGS_MB.image,
  /** Images one composition call may combine (spec 9: multi-composition up to 10). */
  maxComposeImages: 10,
  /** Steps one multi-composition may run (spec 7: maxSteps 10). */
  maxSteps: 10,
  consistencyStrength: 0.8,
  model: 'nanobana',
  quality: '2k',
  aspectRatio: '1:1',
} as const;
