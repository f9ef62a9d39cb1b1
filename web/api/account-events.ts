// The pages' copy of the signed-in user's own account stays current: the queries that read it are marked with
// OWN_ACCOUNT, and are read again when the server says the account changed (event `account` on the one channel of
// web/api/tasks.ts: an admin's approval, a role or credits change, a bank account or payout, from any tab or
// process) and after this tab changed it itself.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followAccount } from './tasks.ts';

/** `meta` of a query that reads the user's own account (GET /api/auth/me, the bank accounts, the payouts…). */
export const OWN_ACCOUNT = { ownAccount: true } as const;

/** Reads again every query of the own account (those read before `before`, in ms, when given). */
export function invalidateOwnAccount(queryClient: QueryClient, before = Number.POSITIVE_INFINITY): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => query.meta?.ownAccount === true && query.state.dataUpdatedAt < before,
  });
}

/** While mounted (the signed-in dashboard), the own account's queries follow the server's account events. */
export function useAccountEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return followAccount((before) => void invalidateOwnAccount(queryClient, before));
  }, [enabled, queryClient]);
}
