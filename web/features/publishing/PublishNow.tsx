import { CheckCircle2, CircleAlert, Clock, Copy, ExternalLink, Loader2, Send } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { PublishResult, SocialPlatform } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useTaskChanges } from '../../api/tasks.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage } from '../../ui/Field.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { usePublish, useScheduledPosts } from './api.ts';
import { MessageField, NetworkLimits, PlatformChecklist, PostLengthNotice } from './ComposeFields.tsx';
import { ContentPicker } from './ContentPicker.tsx';
import { type PlatformView, usePlatformStates } from './connect.ts';
import { errorText, socialMessage } from './messages.ts';
import { attachedMedia, type ContentChoice } from './postMedia.ts';

const M = MESSAGES.social;

export interface Draft {
  message: string;
  platforms: SocialPlatform[];
  content: ContentChoice;
}

/** The client checks of spec 5 Publishing (the server checks them again, with the collaboration list). */
function draftProblem(draft: Draft, views: PlatformView[], isCreator: boolean): string | null {
  if (!views.some((v) => v.account?.isConnected)) return M.noAccounts;
  if (isCreator && draft.content.source === 'collaborations' && !draft.content.collaborationId) {
    return M.selectOneCollaboration;
  }
  if (draft.platforms.length === 0) return M.platformsRequired;
  if (draft.message.trim() === '') return M.messageRequired;
  return null;
}

/** What a draft sends with a post: the collaboration (creators, when chosen) and the attached media. */
export function draftAttachments(draft: Draft, isCreator: boolean) {
  const forCollaboration = isCreator && draft.content.source === 'collaborations';
  const collaborationId = forCollaboration ? draft.content.collaborationId : null;
  return { collaborationId, media: attachedMedia(draft.content, forCollaboration) };
}

/**
 * Results still being published by the worker follow their publishing tasks on the progress channel; each time one
 * finishes the post rows are read again (the row is settled before its task finishes).
 */
function useSettledResults(results: PublishResult[] | undefined): PublishResult[] | undefined {
  const pendingTasks = results?.filter((r) => r.status === 'pending').map((r) => r.task_id) ?? [];
  const rows = useScheduledPosts('all', { enabled: pendingTasks.length > 0 });
  const refetchRows = rows.refetch;
  useTaskChanges(pendingTasks, () => void refetchRows());
  // Memoised: the effect that mirrors results into the platform states must run only when they change.
  return useMemo(
    () =>
      results?.map((result) => {
        if (result.status !== 'pending') return result;
        const row = rows.data?.find((p) => p.id === result.post_id);
        if (!row || (row.status !== 'published' && row.status !== 'failed')) return result;
        return { ...result, status: row.status, share_url: row.share_url, error: row.error_message };
      }),
    [results, rows.data],
  );
}

function ResultRow({ result }: { result: PublishResult }) {
  const { t } = useTranslation();
  const { platform, status, share_url, error } = result;
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t('publishing.now.copied'));
    } catch {
      window.prompt(t('publishing.now.copyLink'), url);
    }
  };
  const absolute = share_url ? new URL(share_url, window.location.origin).href : null;
  return (
    <li
      className="flex flex-wrap items-center gap-3 px-3.5 py-3"
      data-testid={`publish-result-${platform}`}
      data-status={status}
    >
      <PlatformMark platform={platform} size="sm" />
      <div className="min-w-0 flex-1 basis-40">
        <div className="text-sm font-medium">{t(`publishing.platforms.${platform}`)}</div>
        <div
          className={cn(
            'inline-flex items-center gap-1 text-xs font-medium',
            status === 'published' && 'text-success',
            status === 'failed' && 'text-danger',
            (status === 'pending' || status === 'scheduled') && 'text-accent',
          )}
        >
          {status === 'published' && <CheckCircle2 className="size-3" aria-hidden />}
          {status === 'failed' && <CircleAlert className="size-3" aria-hidden />}
          {status === 'pending' && <Loader2 className="size-3 animate-spin" aria-hidden />}
          {status === 'scheduled' && <Clock className="size-3" aria-hidden />}
          {t(`publishing.now.${status === 'pending' ? 'queued' : status}`)}
        </div>
        {status === 'failed' && error && <p className="mt-0.5 text-xs text-danger">{socialMessage(error)}</p>}
      </div>
      {absolute && (
        <div className="flex shrink-0 items-center gap-1.5">
          <a
            href={absolute}
            target="_blank"
            rel="noreferrer"
            data-testid={`publish-share-${platform}`}
            className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-line bg-surface-2 px-3 text-sm font-medium hover:border-line-strong focus-visible:outline-2 focus-visible:outline-accent"
          >
            <ExternalLink className="size-4" aria-hidden />
            {t('publishing.now.openShare')}
          </a>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('publishing.now.copyLink')}
            onClick={() => void copy(absolute)}
          >
            <Copy className="size-4" aria-hidden />
          </Button>
        </div>
      )}
    </li>
  );
}

export function PublishNow({
  draft,
  onDraftChange,
  views,
  isCreator,
  onPublished,
}: {
  draft: Draft;
  onDraftChange: (draft: Draft) => void;
  views: PlatformView[];
  isCreator: boolean;
  /** Every network took the post (or queued it): the kept draft is done with. */
  onPublished: () => void;
}) {
  const { t } = useTranslation();
  const publish = usePublish();
  const setState = usePlatformStates((s) => s.set);
  const results = useSettledResults(publish.data);

  // Each platform shows posting while the call runs, then its own success or error for a few seconds.
  useEffect(() => {
    if (!results) return;
    for (const result of results) {
      if (result.status === 'pending') setState(result.platform, { status: 'posting' });
      else if (result.status === 'failed')
        setState(result.platform, { status: 'error', message: result.error ?? M.publishFailed });
      else setState(result.platform, { status: 'success' });
    }
    if (results.some((r) => r.status === 'pending')) return;
    const timer = window.setTimeout(() => {
      for (const result of results) if (result.status !== 'failed') setState(result.platform, null);
    }, 8000);
    return () => window.clearTimeout(timer);
  }, [results, setState]);

  const [validation, setValidation] = useState<string | null>(null);

  const submit = () => {
    const found = draftProblem(draft, views, isCreator);
    setValidation(found);
    if (found) return;
    const { collaborationId, media } = draftAttachments(draft, isCreator);
    for (const platform of draft.platforms) setState(platform, { status: 'posting' });
    publish.mutate(
      {
        message: draft.message.trim(),
        platforms: draft.platforms,
        // The server resolves the ids (own assets, or the collaboration's campaign materials) to their URLs.
        media_urls: [],
        mode: isCreator && draft.content.source === 'collaborations' ? 'campaigns' : 'materials',
        collaboration_id: collaborationId,
        selected_collaborations: collaborationId ? [collaborationId] : [],
        selected_materials: media.map((m) => m.id),
      },
      {
        onSuccess: (replies) => {
          const failed = replies.filter((r) => r.status === 'failed').length;
          if (failed === 0) {
            toast.success(t('publishing.now.successToast', { count: replies.length }));
            onPublished();
          } else toast.error(t('publishing.now.partialToast'));
        },
        onError: (error) => {
          for (const platform of draft.platforms) setState(platform, { status: 'error', message: errorText(error) });
        },
      },
    );
  };

  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]" data-testid="publish-now">
      <div className="space-y-5 rounded-2xl border border-line bg-surface p-4 sm:p-5">
        <MessageField
          value={draft.message}
          onChange={(message) => onDraftChange({ ...draft, message })}
          testId="publish-message"
        />
        <ContentPicker
          isCreator={isCreator}
          value={draft.content}
          onChange={(content) => onDraftChange({ ...draft, content })}
        />
      </div>
      <div className="space-y-4">
        <div className="space-y-4 rounded-2xl border border-line bg-surface p-4 sm:p-5">
          <PlatformChecklist
            views={views}
            selected={draft.platforms}
            onChange={(platforms) => onDraftChange({ ...draft, platforms })}
            testIdPrefix="publish-platform"
          />
          <PostLengthNotice
            message={draft.message}
            platforms={draft.platforms}
            mediaUrls={attachedMedia(draft.content, isCreator && draft.content.source === 'collaborations').map(
              (m) => m.url,
            )}
            testId="publish-length-notice"
          />
          <NetworkLimits platforms={draft.platforms} testId="publish-network-limits" />
          {validation && <FormMessage>{socialMessage(validation)}</FormMessage>}
          {publish.isError && <FormMessage>{errorText(publish.error, M.publishFailed)}</FormMessage>}
          <Button
            className="w-full"
            size="lg"
            loading={publish.isPending}
            onClick={submit}
            data-testid="generate-button"
          >
            {!publish.isPending && <Send className="size-4" aria-hidden />}
            {publish.isPending ? t('publishing.now.working') : t('publishing.now.submit')}
          </Button>
        </div>
        {results && results.length > 0 && (
          <section className="rounded-2xl border border-line bg-surface" data-testid="publish-results">
            <h3 className="border-b border-line px-4 py-3 text-sm font-semibold">{t('publishing.now.results')}</h3>
            <ul className="divide-y divide-line">
              {results.map((result) => (
                <ResultRow key={result.post_id} result={result} />
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
