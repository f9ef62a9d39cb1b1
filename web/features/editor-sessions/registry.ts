// Tools that take part in saved sessions (canvas spec 2 "Saved sessions", 4, 5): each of the canvas,
// Magic Selector, Multi-Reference and multi-composition registers itself while it is mounted, reports
// its full state on save and applies a loaded state. The overlay's save and load flows only talk to
// this registry, never to a tool's internals.
import { useEffect, useRef } from 'react';
import type { EditorSessionType } from '../../../common/rules/editor-sessions.ts';

export interface SessionParticipant {
  type: EditorSessionType;
  /** The tool's full state in the spec's data shape for its type (spec 3), or null when there is nothing to save. */
  capture: () => Record<string, unknown> | null;
  /** Applies a loaded state; may be async (images to decode). Throws on data it cannot apply. */
  restore: (data: Record<string, unknown>) => void | Promise<void>;
  /** A small data: URL preview (≤ ~50 kB) for the session list, when the tool can draw one. */
  thumbnail?: () => string | null | Promise<string | null>;
}

const participants = new Map<EditorSessionType, SessionParticipant>();

/** Registers a mounted tool; returns the function that unregisters it (only if still the same one). */
export function registerSessionParticipant(participant: SessionParticipant): () => void {
  participants.set(participant.type, participant);
  return () => {
    if (participants.get(participant.type) === participant) participants.delete(participant.type);
  };
}

export function sessionParticipant(type: EditorSessionType): SessionParticipant | undefined {
  return participants.get(type);
}

/**
 * Registers the calling component for `type` while it is mounted. The callbacks may change on every
 * render; the registry always calls the latest ones.
 */
export function useSessionParticipant(type: EditorSessionType, callbacks: Omit<SessionParticipant, 'type'>): void {
  const latest = useRef(callbacks);
  latest.current = callbacks;
  useEffect(
    () =>
      registerSessionParticipant({
        type,
        capture: () => latest.current.capture(),
        restore: (data) => latest.current.restore(data),
        thumbnail: () => latest.current.thumbnail?.() ?? null,
      }),
    [type],
  );
}
