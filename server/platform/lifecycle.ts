/**
 * The process's life after start-up: `draining` once it was asked to stop (SIGTERM). Readiness answers 503
 * from then on so load balancers stop sending new work, and long-lived responses (event streams) are ended
 * with a reconnect hint by the listeners registered with `onDrain`.
 */
export interface Lifecycle {
  readonly draining: boolean;
  /** Marks the process draining and calls every drain listener once. */
  startDrain(): void;
  /** Calls `listener` when draining starts (at once if it has); returns the function that removes it. */
  onDrain(listener: () => void): () => void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  const listeners = new Set<() => void>();
  return {
    get draining() {
      return draining;
    },
    startDrain() {
      if (draining) return;
      draining = true;
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
    onDrain(listener) {
      if (draining) {
        listener();
        return () => undefined;
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
