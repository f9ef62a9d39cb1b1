import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** Spec 2.6 tabs, in order; the open one is kept in the URL (?account=billing) so a reload keeps it. */
export const ACCOUNT_TABS = ['profile', 'billing', 'transactions', 'social', 'security', 'settings'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

const PARAM = 'account';

function parseTab(value: string | null): AccountTab | null {
  if (value === null) return null;
  return (ACCOUNT_TABS as readonly string[]).includes(value) ? (value as AccountTab) : 'profile';
}

/** The account dialog's state in the URL: the open tab, or null while it is closed. */
export function useAccountRoute() {
  const [params, setParams] = useSearchParams();
  const tab = parseTab(params.get(PARAM));
  const open = useCallback(
    (next: AccountTab, replace = false) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.set(PARAM, next);
          return updated;
        },
        { replace },
      ),
    [setParams],
  );
  const close = useCallback(
    () =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.delete(PARAM);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { tab, open, close };
}
