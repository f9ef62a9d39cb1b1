// Unsent work kept per user in this browser: the form of a screen (studio prompt, persona builder, publish
// caption, campaign objective, the film wizard) under localStorage key genpro.<screen>.<userId>, so a reload
// loses nothing and another user signed in on the same browser never sees it. Written a moment after the last
// change and at once when the page hides; cleared when the work is sent (or discarded).
import { History, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../api/session.ts';
import { Button } from './Button.tsx';

export const draftKey = (screen: string, userId: string) => `genpro.${screen}.${userId}`;

/** The stored text of a draft, or null (none, or storage unavailable). */
export function readDraftText(screen: string, userId: string): string | null {
  try {
    return localStorage.getItem(draftKey(screen, userId));
  } catch {
    return null;
  }
}

/** Stores a draft; false when storage is full or unavailable (the form then lives for this page only). */
export function writeDraft(screen: string, userId: string, value: unknown): boolean {
  try {
    localStorage.setItem(draftKey(screen, userId), JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

function removeDraft(screen: string, userId: string): void {
  try {
    localStorage.removeItem(draftKey(screen, userId));
  } catch {
    // storage unavailable: nothing was kept
  }
}

/** A stored draft read back through `parse` (which must not trust it), or null. */
function readDraft<T>(screen: string, userId: string, parse: (raw: unknown) => T | null): T | null {
  const text = readDraftText(screen, userId);
  if (!text) return null;
  try {
    return parse(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * A stored object read back over `defaults`: each field of `defaults` takes the stored value when it has the
 * same type (an array: of strings), so an old or edited draft never puts a wrong type into a form.
 */
export function pickTyped<T extends object>(defaults: T, raw: unknown): T {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return defaults;
  const out = { ...defaults } as Record<string, unknown>;
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = (raw as Record<string, unknown>)[key];
    if (Array.isArray(fallback)) {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) out[key] = value;
    } else if (typeof value === typeof fallback && (typeof value !== 'number' || Number.isFinite(value))) {
      out[key] = value;
    }
  }
  return out as T;
}

/** The signed-in user's id as stored with the session (known before /me answers on a reload). */
export const useDraftOwner = () => useSession((s) => s.storedUser?.id ?? null);

const SAVE_DELAY_MS = 300;

export interface DraftOptions<T> {
  /** The screen's part of the storage key. */
  screen: string;
  /** The form as it is now. */
  value: T;
  /** An empty form is not kept (its stored draft is removed). */
  isEmpty: (value: T) => boolean;
  /** Reads a stored value back, or null when it is not a draft of this screen. */
  parse: (raw: unknown) => T | null;
  /** Puts a stored draft into the form. */
  restore: (value: T) => void;
  /** Empties the form (Discard). */
  reset: () => void;
}

export interface Draft {
  /** A stored draft was put into the form when it opened (the note shows until the draft is sent or discarded). */
  restored: boolean;
  /** Removes the stored draft and empties the form. */
  discard: () => void;
  /** The work was sent: removes the stored draft (the form keeps what it shows). */
  clear: () => void;
}

/**
 * Keeps a screen's form as the signed-in user's draft. On opening (and when another user signs in) a stored
 * draft is restored if the form is still empty; from then on every change is written.
 */
export function useDraft<T>({ screen, value, isEmpty, parse, restore, reset }: DraftOptions<T>): Draft {
  const userId = useDraftOwner();
  // Whose draft the form holds: nothing is written before the stored one has been read for this user.
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [restored, setRestored] = useState(false);
  const latest = useRef({ value, isEmpty, parse, restore, reset, userId });
  latest.current = { value, isEmpty, parse, restore, reset, userId };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The form as it was read or sent: written again only once it changes (a form left filled in after sending,
  // and opened again, is not a draft).
  const unchanged = useRef<string | null>(null);
  // Counts clear(): what the form shows once the sender's own updates (a caption emptied) have rendered is
  // the new baseline.
  const [clears, setClears] = useState(0);

  useEffect(() => {
    if (!userId) return;
    const current = latest.current;
    const stored = current.isEmpty(current.value) ? readDraft(screen, userId, current.parse) : null;
    const restoring = stored !== null && !current.isEmpty(stored);
    if (restoring) current.restore(stored);
    unchanged.current = JSON.stringify(restoring ? stored : current.value);
    setRestored(restoring);
    setLoadedFor(userId);
  }, [screen, userId]);

  const save = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    // A timer left from the previous user (signed out meanwhile) writes nothing.
    if (!userId || latest.current.userId !== userId) return;
    const { value: current, isEmpty: empty } = latest.current;
    if (empty(current)) {
      removeDraft(screen, userId);
      setRestored(false);
    } else writeDraft(screen, userId, current);
  }, [screen, userId]);

  useEffect(() => {
    if (clears > 0) unchanged.current = JSON.stringify(latest.current.value);
  }, [clears]);

  useEffect(() => {
    if (!userId || loadedFor !== userId) return;
    if (unchanged.current !== null) {
      if (JSON.stringify(value) === unchanged.current) return;
      unchanged.current = null;
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(save, SAVE_DELAY_MS);
  }, [value, userId, loadedFor, save]);

  // A reload or a closed tab does not wait for the timer; leaving the screen writes at once too.
  useEffect(() => {
    if (!userId || loadedFor !== userId) return;
    const flush = () => {
      if (timer.current !== undefined) save();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [userId, loadedFor, save]);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    unchanged.current = JSON.stringify(latest.current.value);
    if (userId) removeDraft(screen, userId);
    setRestored(false);
    setClears((n) => n + 1);
  }, [screen, userId]);

  const discard = useCallback(() => {
    clear();
    latest.current.reset();
  }, [clear]);

  return { restored, discard, clear };
}

/** 'Draft restored' with Discard: a polite status, so a screen reader hears why the form is filled in. */
export function DraftRestoredNote({
  draft,
  message,
  testId = 'draft-restored',
}: {
  draft: Draft;
  /** The screen's own sentence; 'Draft restored' by default. */
  message?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!draft.restored) return null;
  return (
    <div
      role="status"
      data-testid={testId}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-accent/30 bg-accent-soft px-3.5 py-2 text-sm text-fg"
    >
      <History className="size-4 shrink-0 text-accent" aria-hidden />
      <span className="min-w-0 flex-1">{message ?? t('drafts.restored')}</span>
      <Button variant="ghost" size="sm" onClick={draft.discard} data-testid={`${testId}-discard`}>
        <X className="size-3.5" aria-hidden />
        {t('drafts.discard')}
      </Button>
    </div>
  );
}
