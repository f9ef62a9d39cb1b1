// TanStack Query hooks for campaigns, applications and collaborations (common/api/campaigns.ts).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CampaignStatus } from '../../../common/api/campaigns.constants.ts';
import type {
  ActiveCollaborationsReply,
  ApplicationListReply,
  ApplicationReply,
  ApplyBody,
  CampaignAssetsReply,
  CampaignListReply,
  CampaignPlanBody,
  CampaignPlanReply,
  CampaignReply,
  CompleteCollaborationReply,
  CreateCampaignBody,
  UpdateCampaignBody,
} from '../../../common/api/campaigns.ts';
import { apiRequest, getData } from '../../api/client.ts';

const campaignKeys = {
  all: ['campaigns'] as const,
  list: (view: 'pool' | 'my', status: string) => ['campaigns', 'list', view, status] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  assets: (id: string) => ['campaigns', 'assets', id] as const,
  applications: (id: string) => ['campaigns', 'applications', id] as const,
  myApplications: ['campaigns', 'my-applications'] as const,
  myActive: ['campaigns', 'my-active'] as const,
};
const walletKey = ['brands', 'wallet'] as const;

/** Everything campaign-shaped is stale after a change anywhere (a status, an application, a payout). */
function useRefreshCampaigns() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    void queryClient.invalidateQueries({ queryKey: walletKey });
  };
}

export function useBuildPlan() {
  return useMutation({
    mutationFn: (body: CampaignPlanBody) =>
      apiRequest<CampaignPlanReply>('/api/campaigns/plan', { method: 'POST', body }).then((r) => r.data),
  });
}

export function useCreateCampaign() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (body: CreateCampaignBody) =>
      apiRequest<CampaignReply>('/api/campaigns', { method: 'POST', body }).then((r) => r.data),
    onSuccess: refresh,
  });
}

/** The pool (`view` pool, open by default) or the caller's own campaigns (`view` my), 50 a page. */
export function useCampaignList(view: 'pool' | 'my', status: CampaignStatus | 'all', enabled = true) {
  return useInfiniteQuery({
    queryKey: campaignKeys.list(view, status),
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ status, offset: String(pageParam) });
      if (view === 'my') query.set('view', 'my');
      return apiRequest<CampaignListReply>(`/api/campaigns?${query}`, { signal });
    },
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.offset + last.data.length : undefined),
  });
}

export function useCampaign(id: string | null) {
  return useQuery({
    queryKey: campaignKeys.one(id ?? ''),
    enabled: Boolean(id),
    queryFn: getData<CampaignReply>(`/api/campaigns/${encodeURIComponent(id ?? '')}`),
  });
}

export function useCampaignAssets(id: string | null) {
  return useQuery({
    queryKey: campaignKeys.assets(id ?? ''),
    enabled: Boolean(id),
    queryFn: ({ signal }) =>
      apiRequest<CampaignAssetsReply>(`/api/campaigns/${encodeURIComponent(id ?? '')}/assets`, { signal }).then(
        (r) => r.data.assets,
      ),
  });
}

export function useUpdateCampaign(id: string) {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (body: UpdateCampaignBody) =>
      apiRequest<CampaignReply>(`/api/campaigns/${encodeURIComponent(id)}`, { method: 'PATCH', body }).then(
        (r) => r.data,
      ),
    onSuccess: refresh,
  });
}

export function useDeleteCampaign() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (id: string) => apiRequest<unknown>(`/api/campaigns/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

// ---- Applications ----

export function useApply(campaignId: string) {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (body: ApplyBody) =>
      apiRequest<ApplicationReply>(`/api/campaigns/${encodeURIComponent(campaignId)}/applications`, {
        method: 'POST',
        body,
      }).then((r) => r.data),
    onSuccess: refresh,
  });
}

export function useCampaignApplications(campaignId: string, enabled = true) {
  return useQuery({
    queryKey: campaignKeys.applications(campaignId),
    enabled,
    queryFn: getData<ApplicationListReply>(`/api/campaigns/${encodeURIComponent(campaignId)}/applications`),
  });
}

export function useMyApplications(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.myApplications,
    enabled,
    queryFn: getData<ApplicationListReply>('/api/applications/my'),
  });
}

export function useApplicationAction() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'accept' | 'decline' | 'withdraw' }) =>
      apiRequest<ApplicationReply>(`/api/applications/${encodeURIComponent(id)}/${action}`, { method: 'POST' }).then(
        (r) => r.data,
      ),
    onSuccess: refresh,
  });
}

// ---- Collaborations ----

export function useMyActiveCollaborations(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.myActive,
    enabled,
    queryFn: getData<ActiveCollaborationsReply>('/api/collaborations/my-active'),
  });
}

export function useCompleteCollaboration() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<CompleteCollaborationReply>(`/api/collaborations/${encodeURIComponent(id)}/complete`, {
        method: 'POST',
      }).then((r) => r.data),
    onSuccess: refresh,
  });
}
