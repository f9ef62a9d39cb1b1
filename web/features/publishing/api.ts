// TanStack Query hooks for publishing and scheduling (common/api/social.ts, spec 7 "Publishing and social").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  accountsReply,
  CalendarDay,
  CreateScheduledBody,
  calendarDayReply,
  calendarReply,
  cancelScheduledReply,
  connectReply,
  createScheduledReply,
  disconnectReply,
  listScheduledReply,
  PublishBody,
  publishReply,
  ScheduledPost,
  SocialPlatform,
  UpdateScheduledBody,
  updateScheduledReply,
} from '../../../common/api/social.ts';
import { apiRequest } from '../../api/client.ts';
import { movedInCalendar } from './calendarMath.ts';

type Reply<T extends z.ZodType> = z.infer<T>;

const keys = {
  accounts: ['social', 'accounts'] as const,
  posts: ['social', 'posts'] as const,
  list: (filter: 'upcoming' | 'all') => ['social', 'posts', 'list', filter] as const,
  calendar: (start: string, end: string, timezone: string) =>
    ['social', 'posts', 'calendar', start, end, timezone] as const,
  day: (date: string, timezone: string) => ['social', 'posts', 'day', date, timezone] as const,
};

/**
 * The connected accounts; `poll` reads them every 2 s while an OAuth connection is under way. That is not a task:
 * the user authorizes in the network's own tab and the network redirects to our callback; no task row follows it,
 * so nothing is announced on the progress channel. The watcher stops reading when the tab closes or times out.
 */
export function useSocialAccounts(options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: keys.accounts,
    queryFn: ({ signal }) =>
      apiRequest<Reply<typeof accountsReply>>('/api/social/accounts', { signal }).then((r) => r.data.accounts),
    refetchInterval: options.poll ? 2000 : false,
  });
}

export function connectPlatform(platform: SocialPlatform) {
  return apiRequest<Reply<typeof connectReply>>(`/api/social/connect/${encodeURIComponent(platform)}`, {
    method: 'POST',
  });
}

export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (platform: SocialPlatform) =>
      apiRequest<Reply<typeof disconnectReply>>(`/api/social/accounts?platform=${encodeURIComponent(platform)}`, {
        method: 'DELETE',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.accounts }),
  });
}

/** Posts and accounts both change after a publish (account status, new rows in the list and calendar). */
function useRefreshPosts() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: keys.posts });
    void queryClient.invalidateQueries({ queryKey: keys.accounts });
  };
}

export function usePublish() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (body: PublishBody) =>
      apiRequest<Reply<typeof publishReply>>('/api/social/publish', { method: 'POST', body }).then(
        (r) => r.data.results,
      ),
    onSettled: refresh,
  });
}

export function useScheduledPosts(filter: 'upcoming' | 'all', options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: keys.list(filter),
    enabled: options.enabled ?? true,
    queryFn: ({ signal }) =>
      apiRequest<Reply<typeof listScheduledReply>>(`/api/social/scheduled-posts?filter=${filter}`, { signal }).then(
        (r) => r.data,
      ),
  });
}

export function useCalendar(start: string, end: string, timezone: string) {
  return useQuery({
    queryKey: keys.calendar(start, end, timezone),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ start, end, timezone });
      return apiRequest<Reply<typeof calendarReply>>(`/api/social/scheduled-posts/calendar?${query}`, {
        signal,
      }).then((r) => r.data.calendar);
    },
    placeholderData: (previous) => previous,
  });
}

export function useDayPosts(date: string | null, timezone: string) {
  return useQuery({
    queryKey: keys.day(date ?? '', timezone),
    enabled: Boolean(date),
    queryFn: ({ signal }) =>
      apiRequest<Reply<typeof calendarDayReply>>('/api/social/scheduled-posts/calendar', {
        method: 'POST',
        body: { date, timezone },
        signal,
      }).then((r) => r.data.posts),
  });
}

export function useCreateScheduled() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (body: CreateScheduledBody) =>
      apiRequest<Reply<typeof createScheduledReply>>('/api/social/scheduled-posts', { method: 'POST', body }).then(
        (r) => r.data,
      ),
    onSuccess: refresh,
  });
}

export function useUpdateScheduled() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (body: UpdateScheduledBody) =>
      apiRequest<Reply<typeof updateScheduledReply>>('/api/social/scheduled-posts', { method: 'PUT', body }).then(
        (r) => r.data,
      ),
    onSuccess: refresh,
  });
}

/**
 * A post dragged to another slot: shown there at once in every calendar range held (optimistic), put back when the
 * server refuses (a time in the past, a post no longer changeable). The caller shows the error.
 */
export function useMovePost() {
  const queryClient = useQueryClient();
  const refresh = useRefreshPosts();
  const calendars = { queryKey: [...keys.posts, 'calendar'] };
  return useMutation({
    mutationFn: ({ post, at }: { post: ScheduledPost; at: Date }) =>
      apiRequest<Reply<typeof updateScheduledReply>>('/api/social/scheduled-posts', {
        method: 'PUT',
        body: { id: post.id, scheduled_time: at.toISOString(), timezone: post.timezone },
      }).then((r) => r.data),
    onMutate: async ({ post, at }) => {
      await queryClient.cancelQueries(calendars);
      const saved = queryClient.getQueriesData<CalendarDay[]>(calendars);
      for (const [key, days] of saved) {
        const [, , , start, end, zone] = key as ReturnType<typeof keys.calendar>;
        if (days) queryClient.setQueryData(key, movedInCalendar(days, post, at, { start, end, zone }));
      }
      return { saved };
    },
    onError: (_error, _move, context) => {
      for (const [key, days] of context?.saved ?? []) queryClient.setQueryData(key, days);
    },
    onSettled: refresh,
  });
}

export function useCancelScheduled() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<Reply<typeof cancelScheduledReply>>(`/api/social/scheduled-posts?id=${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }).then((r) => r.data),
    onSuccess: refresh,
  });
}

/** A failed post published again now (after reconnecting its account). */
export function usePublishAgain() {
  const refresh = useRefreshPosts();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<Reply<typeof updateScheduledReply>>(
        `/api/social/scheduled-posts/${encodeURIComponent(id)}/publish-again`,
        { method: 'POST' },
      ).then((r) => r.data),
    onSuccess: refresh,
  });
}
