// Shared pieces of the long-running client work (generation, film and sequence polls).

/** Waits `ms`, or rejects with an AbortError as soon as `signal` aborts (at once when it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!signal) {
      setTimeout(resolve, ms);
      return;
    }
    if (signal.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/** Aborts and forgets the work running under `id`, or all of it when no id is given. */
export function stopRunning<K>(running: Map<K, AbortController>, id?: K): void {
  for (const [key, controller] of running) {
    if (id === undefined || key === id) {
      controller.abort();
      running.delete(key);
    }
  }
}
