// Shared pieces of the long-running client work (generation, film and sequence runs).

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
