// AI personas and the campaign workspace (issue 7). Named by the spec; server and web import them.

/** Spec 9: each persona image may take 60 s; the pipeline pauses 1 s between generations. */
export const PERSONA_GENERATION = {
  imageTimeoutMs: 60_000,
  pauseMs: 1_000,
  /** The persona image set is generated square at this size. */
  size: 1024,
} as const;
