// TanStack Query hooks of the admin section (common/api/admin.ts). Every admin action reloads the lists
// (spec 4: admin actions reload on success) and the audit log.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminBrandsReply,
  AdminCreatorsReply,
  AdminStorageReply,
  ApproveBrandBody,
  ApproveBrandReply,
  ApproveUserBody,
  ApproveUserReply,
  AuditLogReply,
  DeleteUserBody,
  DeleteUserReply,
} from '../../../common/api/admin.ts';
import type { AdminEnginesReply } from '../../../common/api/engines.ts';
import type { AdminWorkersReply } from '../../../common/api/health.ts';
import {
  type AdminCreatorSort,
  type AdminStatusFilter,
  type AdminVerificationFilter,
  type BrandSort,
  DIRECTORY_PAGE,
} from '../../../common/rules/directory.ts';
import { apiRequest } from '../../api/client.ts';
import { directoryKey, nextOffset, queryString } from '../directory/api.ts';

const auditKey = ['admin', 'audit-log'] as const;

export function useAdminCreators(filters: { search: string; sort: AdminCreatorSort; status: AdminStatusFilter }) {
  return useInfiniteQuery({
    queryKey: [...directoryKey, 'admin-creators', filters],
    // A new search or filter keeps the cards on screen until its answer arrives.
    placeholderData: keepPreviousData,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AdminCreatorsReply>(
        `/api/admin/creators?${queryString({ ...filters, limit: DIRECTORY_PAGE.defaultLimit, offset: pageParam })}`,
        { signal },
      ),
    getNextPageParam: nextOffset,
  });
}

export function useAdminBrands(filters: { search: string; sort: BrandSort; status: AdminVerificationFilter }) {
  return useInfiniteQuery({
    queryKey: [...directoryKey, 'admin-brands', filters],
    // A new search or filter keeps the cards on screen until its answer arrives.
    placeholderData: keepPreviousData,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AdminBrandsReply>(
        `/api/admin/brands?${queryString({ ...filters, limit: DIRECTORY_PAGE.defaultLimit, offset: pageParam })}`,
        { signal },
      ),
    getNextPageParam: nextOffset,
  });
}

export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: auditKey,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AuditLogReply>(`/api/admin/audit-log?${queryString({ limit: 20, offset: pageParam })}`, { signal }),
    getNextPageParam: nextOffset,
  });
}

/** After an admin action: reload every directory and admin list, and the audit log. */
function useReload() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: directoryKey }),
      queryClient.invalidateQueries({ queryKey: auditKey }),
    ]);
}

export function useApproveUser() {
  const reload = useReload();
  return useMutation({
    mutationFn: (body: ApproveUserBody) =>
      apiRequest<ApproveUserReply>('/api/admin/users/approve', { method: 'POST', body }),
    onSuccess: reload,
  });
}

export function useApproveBrand() {
  const reload = useReload();
  return useMutation({
    mutationFn: (body: ApproveBrandBody) =>
      apiRequest<ApproveBrandReply>('/api/admin/brands/approve', { method: 'POST', body }),
    onSuccess: reload,
  });
}

export function useDeleteUser() {
  const reload = useReload();
  return useMutation({
    mutationFn: (body: DeleteUserBody) =>
      apiRequest<DeleteUserReply>('/api/admin/users/delete', { method: 'DELETE', body }),
    onSuccess: reload,
  });
}

/** GET /api/admin/engines: every model, its engine and that engine's last call (refreshed every 30 s). */
export function useAdminEngines() {
  return useQuery({
    queryKey: ['admin', 'engines'],
    refetchInterval: 30_000,
    queryFn: ({ signal }) => apiRequest<AdminEnginesReply>('/api/admin/engines', { signal }),
  });
}

/** GET /api/admin/workers: every process running workers, from its heartbeat (refreshed every 5 s, as they beat). */
export function useAdminWorkers() {
  return useQuery({
    queryKey: ['admin', 'workers'],
    refetchInterval: 5_000,
    queryFn: ({ signal }) => apiRequest<AdminWorkersReply>('/api/admin/workers', { signal }),
  });
}

/** GET /api/admin/storage: the studio's storage use, budget, disk and top users (refreshed every 30 s). */
export function useAdminStorage() {
  return useQuery({
    queryKey: ['admin', 'storage'],
    refetchInterval: 30_000,
    queryFn: ({ signal }) => apiRequest<AdminStorageReply>('/api/admin/storage', { signal }),
  });
}
