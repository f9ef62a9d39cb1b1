// Browser image helpers for the session-aware tools: decoding, small JPEG thumbnails for the session
// list (≤ ~50 kB) and shrinking embedded data URLs so a saved session stays well under its 10 MB limit.

const THUMB_SIDE = 192;
const THUMB_MAX_CHARS = 50_000;

/** Decodes an image (same-origin media URLs and data URLs draw onto a canvas without tainting it). */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('Image could not be loaded'));
    img.src = src;
  });
}

function canvasOf(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  const g = canvas.getContext('2d');
  if (!g) throw new Error('Canvas is not available');
  return [canvas, g];
}

/** JPEG at falling quality until it fits the thumbnail budget. */
function smallJpeg(canvas: HTMLCanvasElement): string | null {
  for (const quality of [0.8, 0.6, 0.4, 0.25]) {
    const url = canvas.toDataURL('image/jpeg', quality);
    if (url.length <= THUMB_MAX_CHARS) return url;
  }
  return null;
}

/**
 * A thumbnail of `width` × `height` proportions drawn by `paint` (given a context already scaled so one
 * unit is one source pixel). Resolves null when nothing can be drawn.
 */
export async function drawThumbnail(
  size: { width: number; height: number },
  paint: (g: CanvasRenderingContext2D) => Promise<void> | void,
): Promise<string | null> {
  try {
    const scale = Math.min(1, THUMB_SIDE / Math.max(size.width, size.height));
    const [canvas, g] = canvasOf(size.width * scale, size.height * scale);
    g.fillStyle = '#111318';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.scale(scale, scale);
    await paint(g);
    return smallJpeg(canvas);
  } catch {
    return null;
  }
}

/** A small JPEG data URL of one image, or null when it cannot be loaded. */
export async function imageThumbnail(src: string | null | undefined): Promise<string | null> {
  if (!src) return null;
  try {
    const img = await loadImage(src);
    return drawThumbnail({ width: img.naturalWidth, height: img.naturalHeight }, (g) => g.drawImage(img, 0, 0));
  } catch {
    return null;
  }
}

/**
 * A data URL no longer than `maxChars`: returned as it is when small enough, else redrawn (WebP, keeping
 * transparency, or JPEG where WebP cannot be encoded) at falling size and quality. Other URLs pass through.
 */
export async function shrinkDataUrl(src: string, maxChars: number): Promise<string> {
  if (!src.startsWith('data:') || src.length <= maxChars) return src;
  const img = await loadImage(src);
  let side = Math.min(2048, Math.max(img.naturalWidth, img.naturalHeight));
  for (let attempt = 0; attempt < 6; attempt++) {
    const scale = side / Math.max(img.naturalWidth, img.naturalHeight);
    const [canvas, g] = canvasOf(img.naturalWidth * scale, img.naturalHeight * scale);
    g.drawImage(img, 0, 0, canvas.width, canvas.height);
    let out = canvas.toDataURL('image/webp', 0.85);
    if (!out.startsWith('data:image/webp')) out = canvas.toDataURL('image/jpeg', 0.85);
    if (out.length <= maxChars) return out;
    side = Math.round(side * 0.7);
  }
  return src;
}

/** The first bytes of a file (for sniffing its type). */
export async function fileHead(file: Blob, bytes = 16): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, bytes).arrayBuffer());
}
