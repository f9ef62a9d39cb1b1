import { CalendarClock, ChevronDown, ListChecks, Send } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SOCIAL_PLATFORMS, type SocialPlatform } from '../../../common/api/social.ts';
import { DEFAULT_TIME_SLOT } from '../../../common/rules/scheduling.ts';
import { useMe } from '../../api/auth.ts';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { DraftRestoredNote, useDraft } from '../../ui/drafts.tsx';
import { useSearchChoice } from '../../ui/useSearchChoice.ts';
import { useMediaHandoff } from '../assets/mediaHandoff.ts';
import { useConnectWatcher, usePlatformViews } from './connect.ts';
import { type Draft, PublishNow } from './PublishNow.tsx';
import { fromAsset } from './postMedia.ts';
import { ScheduledPosts } from './ScheduledPosts.tsx';
import { type ScheduleChoice, SchedulePost } from './SchedulePost.tsx';
import { SocialAccounts } from './SocialAccounts.tsx';
import { preferredZone } from './zone.ts';

const SUB_TAB_IDS = ['now', 'schedule', 'scheduled'] as const;
type SubTab = (typeof SUB_TAB_IDS)[number];
const SUB_TAB_ICONS: Record<SubTab, typeof Send> = { now: Send, schedule: CalendarClock, scheduled: ListChecks };

/** What the browser keeps of a post being written (web/ui/drafts.tsx): the caption and the chosen networks. */
interface Typed {
  message: string;
  platforms: SocialPlatform[];
}

function parseTyped(raw: unknown): Typed | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { message, platforms } = raw as Record<string, unknown>;
  return {
    message: typeof message === 'string' ? message : '',
    platforms: Array.isArray(platforms) ? SOCIAL_PLATFORMS.filter((platform) => platforms.includes(platform)) : [],
  };
}

const isTypedEmpty = (typed: Typed) => typed.message.trim() === '' && typed.platforms.length === 0;

/** The studio's Publish tab (spec 2.2, 2.3): Publish Now, Schedule Post and Scheduled. */
export function PublishTab() {
  const { t } = useTranslation();
  const dir = useDir();
  const me = useMe();
  const isCreator = me.data?.user.role === 'creator';
  const accounts = useConnectWatcher();
  const views = usePlatformViews(accounts.data, SOCIAL_PLATFORMS);
  const connectedCount = views.filter((v) => v.account?.isConnected).length;
  const [tab, setTab] = useSearchChoice<SubTab>('publish', SUB_TAB_IDS, 'now');
  const [showAccounts, setShowAccounts] = useState(false);
  const [draft, setDraft] = useState<Draft>({
    message: '',
    platforms: [],
    content: { source: 'collaborations', collaborationId: null, campaignId: null, media: [] },
  });
  const typed = useMemo(
    () => ({ message: draft.message, platforms: draft.platforms }),
    [draft.message, draft.platforms],
  );
  const kept = useDraft({
    screen: 'draft.publish',
    value: typed,
    isEmpty: isTypedEmpty,
    parse: parseTyped,
    restore: (stored) => setDraft((current) => ({ ...current, ...stored })),
    reset: () => setDraft((current) => ({ ...current, message: '', platforms: [] })),
  });
  // Media chosen in the Library ("Use in ▸ Post") arrive as `?media=`: attached as the user's own media.
  useMediaHandoff((assets) =>
    setDraft((current) => ({
      ...current,
      content: { ...current.content, source: 'materials', media: assets.map(fromAsset) },
    })),
  );
  const [choice, setChoice] = useState<ScheduleChoice>(() => ({
    date: null,
    time: DEFAULT_TIME_SLOT,
    zone: preferredZone(me.data?.user.timezone),
  }));
  // The account's zone arrives with /api/auth/me; it applies until the user picks a zone here.
  const zonePicked = useRef(false);
  const accountZone = me.data?.user.timezone;
  useEffect(() => {
    if (!zonePicked.current) setChoice((current) => ({ ...current, zone: preferredZone(accountZone) }));
  }, [accountZone]);
  const changeChoice = (next: ScheduleChoice) => {
    if (next.zone !== choice.zone) zonePicked.current = true;
    setChoice(next);
  };
  // A platform that disconnects while ticked is dropped from the selection.
  const connectedPlatforms = draft.platforms.filter((p) => views.find((v) => v.platform === p)?.account?.isConnected);
  const liveDraft =
    accounts.data && connectedPlatforms.length !== draft.platforms.length
      ? { ...draft, platforms: connectedPlatforms }
      : draft;
  // Opened by itself while nothing is connected, and left open after a connection until the user closes it.
  const noneConnected = accounts.isSuccess && connectedCount === 0;
  useEffect(() => {
    if (noneConnected) setShowAccounts(true);
  }, [noneConnected]);
  const accountsOpen = showAccounts || noneConnected;

  return (
    <div className="min-w-0 space-y-4" data-testid="publish-tab">
      <section className="rounded-2xl border border-line bg-surface">
        <button
          type="button"
          aria-expanded={accountsOpen}
          onClick={() => setShowAccounts(!accountsOpen)}
          data-testid="publish-accounts-toggle"
          data-accounts={accounts.isSuccess ? 'known' : 'loading'}
          className="flex w-full items-center gap-3 rounded-2xl px-4 py-3 text-start focus-visible:outline-2 focus-visible:outline-accent"
        >
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold">{t('publishing.accounts.title')}</span>
            <span className="block text-xs text-muted">
              {accounts.isSuccess && connectedCount === 0
                ? t('publishing.accounts.noneConnected')
                : views
                    .filter((v) => v.account?.isConnected)
                    .map((v) => t(`publishing.platforms.${v.platform}`))
                    .join(' · ')}
            </span>
          </span>
          <span className="text-xs font-medium text-accent">{t('publishing.accounts.manage')}</span>
          <ChevronDown
            className={cn('size-4 text-muted transition-transform', accountsOpen && 'rotate-180')}
            aria-hidden
          />
        </button>
        {accountsOpen && (
          <div className="space-y-3 border-t border-line p-4">
            <p className="text-xs text-muted">{t('publishing.accounts.hint')}</p>
            <SocialAccounts />
          </div>
        )}
      </section>
      <DraftRestoredNote draft={kept} testId="publish-draft-restored" />
      <Tabs.Root dir={dir} value={tab} onValueChange={(value) => setTab(value as SubTab)}>
        <Tabs.List
          aria-label={t('publishing.tabs.label')}
          className="flex w-full gap-1 overflow-x-auto rounded-xl border border-line bg-surface-2 p-1 sm:inline-flex sm:w-auto"
        >
          {SUB_TAB_IDS.map((id) => {
            const Icon = SUB_TAB_ICONS[id];
            return (
              <Tabs.Trigger
                key={id}
                value={id}
                data-testid={`publish-subtab-${id}`}
                className={cn(
                  'inline-flex h-9 flex-1 shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-lg px-2.5 text-sm font-medium text-muted transition-colors sm:flex-none sm:px-3',
                  'hover:text-fg focus-visible:outline-2 focus-visible:outline-accent',
                  'data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm',
                )}
              >
                <Icon className="hidden size-4 sm:block" aria-hidden />
                {t(`publishing.tabs.${id}`)}
              </Tabs.Trigger>
            );
          })}
        </Tabs.List>
        <Tabs.Content value="now" className="mt-4 focus-visible:outline-none">
          <PublishNow
            draft={liveDraft}
            onDraftChange={setDraft}
            views={views}
            isCreator={isCreator}
            onPublished={kept.clear}
          />
        </Tabs.Content>
        <Tabs.Content value="schedule" className="mt-4 focus-visible:outline-none">
          <SchedulePost
            draft={liveDraft}
            onDraftChange={setDraft}
            choice={choice}
            onChoiceChange={changeChoice}
            views={views}
            isCreator={isCreator}
            onScheduled={() => {
              kept.clear();
              setTab('scheduled');
            }}
          />
        </Tabs.Content>
        <Tabs.Content value="scheduled" className="mt-4 focus-visible:outline-none">
          <ScheduledPosts zone={choice.zone} onZoneChange={(zone) => changeChoice({ ...choice, zone })} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
