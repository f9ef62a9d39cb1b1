// What a post is about and attaches: a collaboration (or none) and the files from the media picker.
import { Loader2 } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActiveCollaboration } from '../../../common/api/campaigns.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, Segmented } from '../../ui/controls.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { useMyActiveCollaborations } from '../campaigns/api.ts';
import { MediaPicker } from './MediaPicker.tsx';
import { errorText } from './messages.ts';
import { attachedMedia, type ContentChoice, type ContentSource } from './postMedia.ts';

function CollaborationList({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (collaboration: ActiveCollaboration) => void;
}) {
  const { t } = useTranslation();
  const query = useMyActiveCollaborations();
  const name = useId();
  if (query.isPending) {
    return (
      <div className="flex justify-center py-6">
        <Loader2 className="size-5 animate-spin text-muted" aria-label={t('common.loading')} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="space-y-2" role="alert">
        <FormMessage>{errorText(query.error, t('publishing.compose.collaborationsFailed'))}</FormMessage>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          {t('publishing.scheduled.tryAgain')}
        </Button>
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
        {t('publishing.compose.noCollaborations')}
      </p>
    );
  }
  return (
    <div className="space-y-2" role="radiogroup" aria-label={t('publishing.compose.sourceCollaborations')}>
      <p className="text-xs text-subtle">{t('publishing.compose.collaborationsHint')}</p>
      {query.data.map((collab) => {
        const checked = value === collab.collaboration_id;
        return (
          <label
            key={collab.collaboration_id}
            data-testid="publish-collaboration"
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-xl border px-3 py-2.5 transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
              checked ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2/60 hover:border-line-strong',
            )}
          >
            <input
              type="radio"
              name={name}
              className="mt-1 accent-[var(--gp-accent)]"
              checked={checked}
              onChange={() => onChange(collab)}
            />
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium">{collab.campaign_title}</span>
              <span className="block truncate text-xs text-muted">
                {t('publishing.compose.by', { brand: collab.brand_name })}
              </span>
              {collab.campaign_description && (
                <span className="mt-0.5 line-clamp-2 block text-xs text-subtle">{collab.campaign_description}</span>
              )}
              {collab.deliverables.length > 0 && (
                <span className="mt-1 flex flex-wrap gap-1" data-testid="publish-collaboration-deliverables">
                  {collab.deliverables.map((d) => (
                    <span
                      key={`${d.type}-${d.platform ?? ''}`}
                      className="rounded-full bg-surface-3 px-2 py-0.5 text-xs tabular-nums text-muted"
                    >
                      {d.type} {d.completed}/{d.quantity}
                    </span>
                  ))}
                </span>
              )}
            </span>
          </label>
        );
      })}
    </div>
  );
}

/**
 * Spec 2.2: creators switch between My Active Collaborations (one) and AI Materials; brands see materials. A post
 * for a collaboration may attach the campaign's materials and the creator's own assets.
 */
export function ContentPicker({
  isCreator,
  value,
  onChange,
}: {
  isCreator: boolean;
  value: ContentChoice;
  onChange: (value: ContentChoice) => void;
}) {
  const { t } = useTranslation();
  const forCollaboration = isCreator && value.source === 'collaborations';
  const media = attachedMedia(value, forCollaboration);
  return (
    <div className="space-y-2.5">
      <span className={labelClass}>{t('publishing.compose.contentSource')}</span>
      {isCreator && (
        <Segmented<ContentSource>
          label={t('publishing.compose.contentSource')}
          value={value.source}
          onChange={(source) => onChange({ ...value, source })}
          testIdPrefix="publish-source"
          layout="fill"
          options={[
            { value: 'collaborations', label: t('publishing.compose.sourceCollaborations') },
            { value: 'materials', label: t('publishing.compose.sourceMaterials') },
          ]}
        />
      )}
      {forCollaboration ? (
        <>
          <CollaborationList
            value={value.collaborationId}
            onChange={(collab) =>
              onChange({
                ...value,
                collaborationId: collab.collaboration_id,
                campaignId: collab.campaign_id,
                // Another campaign's materials cannot go with this collaboration.
                media:
                  collab.campaign_id === value.campaignId
                    ? value.media
                    : value.media.filter((m) => m.origin === 'asset'),
              })
            }
          />
          {value.collaborationId && (
            <div className="space-y-2 border-t border-line pt-3">
              <span className={labelClass}>{t('publishing.compose.media')}</span>
              <MediaPicker
                campaignId={value.campaignId}
                value={media}
                onChange={(next) => onChange({ ...value, media: next })}
              />
            </div>
          )}
        </>
      ) : (
        <MediaPicker campaignId={null} value={media} onChange={(next) => onChange({ ...value, media: next })} />
      )}
    </div>
  );
}
