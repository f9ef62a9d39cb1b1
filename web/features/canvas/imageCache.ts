// One HTMLImageElement per URL, shared by every node that draws it; a load redraws the layer once.
// An image counts as loaded only once it is decoded (`img.decode()`, off the main thread), so the first
// draw never decodes a full-resolution bitmap synchronously inside a frame.
const cache = new Map<string, HTMLImageElement>();
const ready = new Set<string>();
const waiting = new Map<string, Set<() => void>>();

/** The loaded image for `url`, or undefined while it loads (`onLoad` fires once it has). */
export function loadImage(url: string, onLoad: () => void): HTMLImageElement | undefined {
  const hit = cache.get(url);
  if (hit && ready.has(url)) return hit;
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
    const done = () => {
      if (ready.has(url)) return;
      ready.add(url);
      const pending = waiting.get(url);
      waiting.delete(url);
      for (const fn of pending ?? []) fn();
    };
    // A failed load is forgotten, so the next draw of the node asks again rather than staying grey for good.
    const failed = () => {
      waiting.delete(url);
      if (cache.get(url) === img) cache.delete(url);
    };
    img.src = url;
    cache.set(url, img);
    if (typeof img.decode === 'function') {
      // decode() rejects on a broken image, and in rare cases (e.g. a detached document) on a good one.
      img.decode().then(done, () => (img.complete && img.naturalWidth > 0 ? done() : failed()));
    } else {
      img.onload = done;
      img.onerror = failed;
    }
  }
  return undefined;
}

/** Stop notifying `onLoad` (a node went off screen before its image arrived). */
export function forgetListener(url: string, onLoad: () => void) {
  waiting.get(url)?.delete(onLoad);
}
