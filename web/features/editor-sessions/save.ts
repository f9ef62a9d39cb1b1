// Preparing a session for saving (canvas spec 4, 5, 8): the captured state is normalised, its shape checked
// and its serialized size measured before anything is sent, with the spec's messages.
import {
  EDITOR_SESSION_MESSAGES,
  type EditorSessionType,
  normaliseSessionData,
  sessionDataSize,
  sessionSizeError,
  validateSessionData,
} from '../../../common/rules/editor-sessions.ts';

type Prepared = { ok: true; data: Record<string, unknown>; sizeBytes: number } | { ok: false; message: string };

export function prepareSessionData(type: EditorSessionType, captured: Record<string, unknown> | null): Prepared {
  if (captured === null) return { ok: false, message: EDITOR_SESSION_MESSAGES.noData };
  const data = normaliseSessionData(type, captured);
  const errors = validateSessionData(type, data);
  if (errors.length > 0) return { ok: false, message: EDITOR_SESSION_MESSAGES.invalid(errors.join(', ')) };
  const sizeBytes = sessionDataSize(data);
  const tooLarge = sessionSizeError(sizeBytes);
  if (tooLarge) return { ok: false, message: tooLarge };
  return { ok: true, data, sizeBytes };
}

/** The default name: the tool's title and the date and time in the user's language ("Canvas – 21 Nov 2026, 14:05"). */
export function defaultSessionName(title: string, date: Date, locale: string): string {
  const when = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
  return `${title} – ${when}`;
}
