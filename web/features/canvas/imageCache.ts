// One HTMLImageElement per URL, shared by every node that draws it; a load redraws the layer once.
const cache = new Map<string, HTMLImageElement>();
const waiting = new Map<string, Set<() => void>>();

/** The loaded image for `url`, or undefined while it loads (`onLoad` fires once it has). */
export function loadImage(url: string, onLoad: () => void): HTMLImageElement | undefined {
  const hit = cache.get(url);
  if (hit?.complete && hit.naturalWidth > 0) return hit;
  let listeners = waiting.get(url);
  if (!listeners) {
    listeners = new Set();
    waiting.set(url, listeners);
  }
  listeners.add(onLoad);
  if (!hit) {
    const img = new Image();
    img.decoding = 'async';
    if (/^https?:/.test(url) && !url.startsWith(window.location.origin)) img.crossOrigin = 'anonymous';
    img.onload = () => {
      const pending = waiting.get(url);
      waiting.delete(url);
      for (const fn of pending ?? []) fn();
    };
    img.onerror = () => waiting.delete(url);
    img.src = url;
    cache.set(url, img);
  }
  return undefined;
}

/** Stop notifying `onLoad` (a node went off screen before its image arrived). */
export function forgetListener(url: string, onLoad: () => void) {
  waiting.get(url)?.delete(onLoad);
}
