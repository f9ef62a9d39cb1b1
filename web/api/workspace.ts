// The campaign workspace (spec 7): GET/POST/DELETE /api/campaign/workspace.
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AddWorkspaceItemBody,
  WorkspaceItem,
  workspaceItemReply,
  workspaceListReply,
  workspaceRemoveReply,
} from '../../common/api/workspace.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ApiError, apiRequest } from './client.ts';

export type { WorkspaceItem };

type ListReply = z.infer<typeof workspaceListReply>;
type ItemReply = z.infer<typeof workspaceItemReply>;
type RemoveReply = z.infer<typeof workspaceRemoveReply>;

export const workspaceKey = ['campaign-workspace'] as const;
const ROUTE = '/api/campaign/workspace';

export function useWorkspace() {
  return useQuery({
    queryKey: workspaceKey,
    queryFn: ({ signal }) => apiRequest<ListReply>(ROUTE, { signal }).then((reply) => reply.data),
  });
}

export type AddOutcome =
  | { kind: 'added' }
  | { kind: 'duplicate'; message: string }
  | { kind: 'failed'; message: string };

/**
 * Adds a persona or video. A duplicate (409) is not a failure: the server's already-added message is shown.
 * Any other failure gives the spec's 'Failed to add persona to campaign. Please try again.'
 */
export async function addToWorkspace(body: AddWorkspaceItemBody): Promise<AddOutcome> {
  try {
    await apiRequest<ItemReply>(ROUTE, { method: 'POST', body });
    return { kind: 'added' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const fallback =
        body.assetType === 'video' ? MESSAGES.personas.videoAlreadyInWorkspace : MESSAGES.personas.alreadyInWorkspace;
      return { kind: 'duplicate', message: error.message || fallback };
    }
    if (error instanceof ApiError && error.status === 401) {
      return { kind: 'failed', message: MESSAGES.personas.loginToAdd };
    }
    return { kind: 'failed', message: MESSAGES.personas.addToCampaignFailed };
  }
}

export function removeFromWorkspace(assetId: string) {
  return apiRequest<RemoveReply>(`${ROUTE}?asset_id=${encodeURIComponent(assetId)}`, { method: 'DELETE' });
}

export function clearWorkspace() {
  return apiRequest<RemoveReply>(`${ROUTE}?clear_all=true`, { method: 'DELETE' });
}
