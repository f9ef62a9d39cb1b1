// The draft campaign (spec 4 and 9): kept in local storage per user (web/ui/drafts.tsx, key
// genpro.draft.campaign.<userId>) on every change while the objective is non-empty, restored when the Campaigns
// tab opens again and cleared once a campaign has been created from it. The spec's 30 s autosave is what the
// form reports ("Draft saved at …").
import { useEffect, useRef } from 'react';
import { writeDraft } from '../../ui/drafts.tsx';

export const CAMPAIGN_DRAFT = 'draft.campaign';
const DRAFT_AUTOSAVE_MS = 30_000;

/** Stores the draft now (Save draft, leaving for the checkout); false when it could not be kept. */
export function saveDraftNow(userId: string | null, draft: unknown): boolean {
  return userId !== null && writeDraft(CAMPAIGN_DRAFT, userId, draft);
}

/**
 * Saves `draft` every 30 s while `shouldSave(draft)` holds (the objective is non-empty). The latest value is
 * read through a ref so the timer is not reset by every keystroke. `onSaved` reports each save.
 */
export function useDraftAutosave<T>(
  userId: string | null,
  draft: T,
  shouldSave: (draft: T) => boolean,
  onSaved: (at: Date) => void,
) {
  const latest = useRef({ userId, draft, shouldSave, onSaved });
  latest.current = { userId, draft, shouldSave, onSaved };
  useEffect(() => {
    const timer = setInterval(() => {
      const { userId: owner, draft: current, shouldSave: check, onSaved: report } = latest.current;
      if (check(current) && saveDraftNow(owner, current)) report(new Date());
    }, DRAFT_AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, []);
}
