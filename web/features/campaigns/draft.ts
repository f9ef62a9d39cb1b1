// The draft campaign (spec 4 and 9): kept in local storage, saved every 30 s while the objective is non-empty,
// restored when the Campaigns tab opens again and cleared once a campaign has been created from it.
import { useEffect, useRef } from 'react';

const DRAFT_KEY = 'campaign_draft';
const DRAFT_AUTOSAVE_MS = 30_000;

export function loadDraft<T>(parse: (value: unknown) => T | null): T | null {
  try {
    const raw = localStorage.getItem(DRAFT_KEY);
    return raw ? parse(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

export function saveDraft(draft: unknown): boolean {
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(DRAFT_KEY);
  } catch {
    // storage unavailable: nothing was kept
  }
}

/**
 * Saves `draft` every 30 s while `shouldSave(draft)` holds (the objective is non-empty). The latest value is
 * read through a ref so the timer is not reset by every keystroke. `onSaved` reports each save.
 */
export function useDraftAutosave<T>(draft: T, shouldSave: (draft: T) => boolean, onSaved: (at: Date) => void) {
  const latest = useRef({ draft, shouldSave, onSaved });
  latest.current = { draft, shouldSave, onSaved };
  useEffect(() => {
    const timer = setInterval(() => {
      const { draft: current, shouldSave: check, onSaved: report } = latest.current;
      if (check(current) && saveDraft(current)) report(new Date());
    }, DRAFT_AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, []);
}
