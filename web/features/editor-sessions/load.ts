// Loading a saved session into the editor overlay (canvas spec 4, 8, 9): fetch it, switch to its tool when
// another one is showing, poll every 100 ms up to 20 times for that tool to register as a participant, then
// hand it the data. No React here, so the timing can be tested with fake timers.
import type { EditorSession } from '../../../common/api/editor-sessions.ts';
import {
  EDITOR_SESSION_LIMITS,
  EDITOR_SESSION_MESSAGES,
  EDITOR_SESSION_TYPES,
  type EditorSessionType,
} from '../../../common/rules/editor-sessions.ts';
import { ApiError } from '../../api/client.ts';
import { type SessionParticipant, sessionParticipant } from './registry.ts';

type Lookup = (type: EditorSessionType) => SessionParticipant | undefined;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The participant of `type`. With `afterSwitch` the tool has only just been asked to mount, so it first
 * waits one interval (a stale registration must not win); otherwise a registered one is used at once.
 * Then it looks every 100 ms, 20 times in all, and gives up with undefined.
 */
export async function waitForParticipant(
  type: EditorSessionType,
  { afterSwitch, lookup = sessionParticipant }: { afterSwitch: boolean; lookup?: Lookup },
): Promise<SessionParticipant | undefined> {
  if (!afterSwitch) {
    const ready = lookup(type);
    if (ready) return ready;
  }
  for (let attempt = 0; attempt < EDITOR_SESSION_LIMITS.mountPollAttempts; attempt += 1) {
    await sleep(EDITOR_SESSION_LIMITS.mountPollMs);
    const found = lookup(type);
    if (found) return found;
  }
  return undefined;
}

export type LoadOutcome = { ok: true; session: EditorSession } | { ok: false; message: string };

interface LoadDeps {
  fetchSession: (id: string) => Promise<EditorSession>;
  /** The session type of the tool the overlay shows now. */
  activeType: () => EditorSessionType;
  /** Shows the tool of this type (the overlay switches its tab). */
  switchTo: (type: EditorSessionType) => void;
  lookup?: Lookup;
}

const isType = (value: string): value is EditorSessionType =>
  (EDITOR_SESSION_TYPES as readonly string[]).includes(value);

/** Fetches session `id` and applies it to its tool; the outcome carries the spec message to show. */
export async function loadSession(id: string, deps: LoadDeps): Promise<LoadOutcome> {
  const m = EDITOR_SESSION_MESSAGES;
  let session: EditorSession;
  try {
    session = await deps.fetchSession(id);
  } catch (error) {
    return { ok: false, message: error instanceof ApiError && error.status === 404 ? m.notFound : m.loadFailed };
  }
  const type = session.component_type;
  if (!isType(type)) return { ok: false, message: m.unsupportedType(type) };

  const switched = deps.activeType() !== type;
  if (switched) deps.switchTo(type);
  const participant = await waitForParticipant(type, { afterSwitch: switched, lookup: deps.lookup });
  if (!participant) return { ok: false, message: m.componentNotReady };
  try {
    await participant.restore(session.data);
  } catch (error) {
    const message = error instanceof Error && error.message.startsWith('Invalid session data') ? error.message : null;
    return { ok: false, message: message ?? m.loadFailed };
  }
  return { ok: true, session };
}
