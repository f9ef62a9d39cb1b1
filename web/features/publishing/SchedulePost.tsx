import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MESSAGES } from '../../../common/messages.ts';
import { dayInZone, TIME_SLOTS, validateSchedule } from '../../../common/rules/scheduling.ts';
import { Button } from '../../ui/Button.tsx';
import { SelectField } from '../../ui/controls.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { useCreateScheduled } from './api.ts';
import { MessageField, NetworkLimits, PlatformChecklist, PostLengthNotice } from './ComposeFields.tsx';
import { ContentPicker } from './ContentPicker.tsx';
import type { PlatformView } from './connect.ts';
import { MonthCalendar, monthOf } from './MonthCalendar.tsx';
import { errorText, socialMessage } from './messages.ts';
import { type Draft, draftAttachments } from './PublishNow.tsx';
import { attachedMedia } from './postMedia.ts';
import { formatDay, useNow, zoneOptions } from './zone.ts';

const M = MESSAGES.social;

export interface ScheduleChoice {
  date: string | null;
  time: string;
  zone: string;
}

export function SchedulePost({
  draft,
  onDraftChange,
  choice,
  onChoiceChange,
  views,
  isCreator,
  onScheduled,
}: {
  draft: Draft;
  onDraftChange: (draft: Draft) => void;
  choice: ScheduleChoice;
  onChoiceChange: (choice: ScheduleChoice) => void;
  views: PlatformView[];
  isCreator: boolean;
  onScheduled: () => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const today = dayInZone(now, choice.zone);
  const [month, setMonth] = useState(() => monthOf(choice.date ?? today));
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateScheduled();

  const submit = () => {
    const checked = validateSchedule(
      { date: choice.date, time: choice.time, zone: choice.zone, platforms: draft.platforms, message: draft.message },
      new Date(),
    );
    const forCampaign = isCreator && draft.content.source === 'collaborations';
    const found = !views.some((v) => v.account?.isConnected)
      ? M.noAccounts
      : !checked.ok
        ? checked.message
        : forCampaign && !draft.content.collaborationId
          ? M.selectOneCollaboration
          : null;
    setProblem(found);
    if (found || !choice.date) return;
    const { collaborationId, media } = draftAttachments(draft, isCreator);
    create.mutate(
      {
        message: draft.message.trim(),
        media_urls: media.map((m) => m.url),
        scheduled_time: `${choice.date}T${choice.time}`,
        timezone: choice.zone,
        platforms: draft.platforms,
        mode: forCampaign ? 'campaigns' : 'materials',
        collaboration_id: collaborationId,
      },
      {
        onSuccess: () => {
          toast.success(t('publishing.schedule.scheduledToast'));
          onDraftChange({ ...draft, message: '' });
          onScheduled();
        },
      },
    );
  };

  const platformNames = draft.platforms.map((p) => t(`publishing.platforms.${p}`));
  const options = zoneOptions((zone) => t('publishing.schedule.localZone', { zone }), choice.zone);
  const zoneLabel = options.find((o) => o.value === choice.zone)?.label ?? choice.zone;

  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]" data-testid="schedule-post">
      <div className="space-y-5 rounded-2xl border border-line bg-surface p-4 sm:p-5">
        <MessageField
          value={draft.message}
          onChange={(message) => onDraftChange({ ...draft, message })}
          testId="schedule-message"
        />
        <MonthCalendar
          month={month}
          onMonthChange={setMonth}
          today={today}
          selected={choice.date}
          onSelect={(date) => onChoiceChange({ ...choice, date })}
          disablePast
          label={t('publishing.schedule.date')}
          testId="schedule-calendar"
        />
        <ContentPicker
          isCreator={isCreator}
          value={draft.content}
          onChange={(content) => onDraftChange({ ...draft, content })}
        />
      </div>
      <div className="space-y-4 rounded-2xl border border-line bg-surface p-4 sm:p-5 lg:self-start">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-1">
          <SelectField
            label={t('publishing.schedule.time')}
            value={choice.time}
            onChange={(time) => onChoiceChange({ ...choice, time })}
            options={TIME_SLOTS.map((slot) => ({ value: slot, label: slot }))}
            testId="schedule-time"
          />
          <SelectField
            label={t('publishing.schedule.timezone')}
            value={choice.zone}
            onChange={(zone) => onChoiceChange({ ...choice, zone })}
            options={options}
            testId="schedule-timezone"
          />
        </div>
        <PlatformChecklist
          views={views}
          selected={draft.platforms}
          onChange={(platforms) => onDraftChange({ ...draft, platforms })}
          testIdPrefix="schedule-platform"
        />
        <PostLengthNotice
          message={draft.message}
          platforms={draft.platforms}
          mediaUrls={attachedMedia(draft.content, isCreator && draft.content.source === 'collaborations').map(
            (m) => m.url,
          )}
          testId="schedule-length-notice"
        />
        <NetworkLimits platforms={draft.platforms} testId="schedule-network-limits" />
        <section
          className="space-y-1 rounded-xl border border-line bg-surface-2/60 px-3.5 py-3 text-sm"
          data-testid="schedule-summary"
          aria-live="polite"
        >
          <h3 className="flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
            <CalendarClock className="size-3.5" aria-hidden />
            {t('publishing.schedule.summary')}
          </h3>
          <p className="font-medium">
            {choice.date
              ? t('publishing.schedule.summaryWhen', { date: formatDay(choice.date, i18n.language), time: choice.time })
              : t('publishing.schedule.summaryNoDate')}
          </p>
          <p className="text-muted">{t('publishing.schedule.summaryZone', { zone: zoneLabel })}</p>
          <p className="text-muted">
            {platformNames.length > 0
              ? t('publishing.schedule.summaryPlatforms', { list: platformNames.join(', ') })
              : t('publishing.schedule.summaryNone')}
          </p>
        </section>
        {problem && <FormMessage>{socialMessage(problem)}</FormMessage>}
        {create.isError && (
          <FormMessage>
            <strong className="block">{socialMessage(M.scheduleFailed)}</strong>
            {errorText(create.error, M.unknownError)}
          </FormMessage>
        )}
        <Button className="w-full" size="lg" loading={create.isPending} onClick={submit} data-testid="schedule-submit">
          {!create.isPending && <CalendarClock className="size-4" aria-hidden />}
          {t('publishing.schedule.submit')}
        </Button>
      </div>
    </div>
  );
}
