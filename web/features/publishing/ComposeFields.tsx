import { Check } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { POST_TEXT_LIMITS, postTextLength } from '../../../common/rules/post-text.ts';
import { limitsSummary } from '../../../common/rules/social-media.ts';
import { useUserSettings } from '../../api/settings.ts';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { useSocialAccounts } from './api.ts';
import type { PlatformView } from './connect.ts';
import { StatusLabel } from './SocialAccounts.tsx';

export function MessageField({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className={labelClass}>
          {t('publishing.compose.message')}
        </label>
        <span className="text-xs tabular-nums text-subtle">
          {t('publishing.compose.characters', { count: value.length })}
        </span>
      </div>
      <textarea
        id={id}
        data-testid={testId}
        value={value}
        maxLength={5000}
        rows={4}
        placeholder={t('publishing.compose.messagePlaceholder')}
        onChange={(event) => onChange(event.target.value)}
        className={cn(inputClass, 'min-h-28 resize-y py-2.5 leading-relaxed')}
      />
    </div>
  );
}

/**
 * Which chosen networks the message is too long for, as each counts it (links included where they go in the
 * text: the sandbox networks; the live ones upload the files): shortened to fit with Cross-post optimization on, refused with it off (common/rules/post-text.ts).
 */
export function PostLengthNotice({
  message,
  platforms,
  mediaUrls,
  testId,
}: {
  message: string;
  platforms: readonly SocialPlatform[];
  mediaUrls: readonly string[];
  testId: string;
}) {
  const { t } = useTranslation();
  const settings = useUserSettings();
  const optimize = settings.data?.crossPostOptimization ?? true;
  const accounts = useSocialAccounts();
  // The links as the networks get them: absolute, with the post's signature (about 90 characters more). A live
  // network is sent the files themselves (uploaded), not links.
  const links = mediaUrls.map((url) => `${new URL(url, window.location.origin).href}${'x'.repeat(90)}`);
  const live = new Set((accounts.data ?? []).filter((a) => a.mode === 'live').map((a) => a.platform));
  const over = platforms.flatMap((platform) => {
    const length = postTextLength(platform, message.trim(), live.has(platform) ? [] : links);
    const limit = POST_TEXT_LIMITS[platform];
    return length > limit ? [{ platform, length, limit }] : [];
  });
  if (over.length === 0) return null;
  return (
    <ul className="space-y-1" data-testid={testId} data-refused={optimize ? 'false' : 'true'} aria-live="polite">
      {over.map(({ platform, length, limit }) => (
        <li
          key={platform}
          className={cn('text-xs leading-snug', optimize ? 'text-muted' : 'text-danger')}
          data-platform={platform}
        >
          {t(optimize ? 'publishing.compose.tooLongFitted' : 'publishing.compose.tooLongRefused', {
            platform: t(`publishing.platforms.${platform}`),
            length,
            limit,
          })}
        </li>
      ))}
    </ul>
  );
}

/**
 * What each chosen network takes in one post (its published limits, common/rules/social-media.ts): the caption
 * limit, whether it needs media, how many files, and the image and video formats, sizes, ratios and lengths.
 * A post outside them is refused with a message naming the network and the limit.
 */
export function NetworkLimits({ platforms, testId }: { platforms: readonly SocialPlatform[]; testId: string }) {
  const { t } = useTranslation();
  if (platforms.length === 0) return null;
  return (
    <ul className="space-y-1.5" data-testid={testId} aria-label={t('publishing.limits.title')}>
      {platforms.map((platform) => {
        const s = limitsSummary(platform);
        const parts = [
          t('publishing.limits.caption', { limit: s.captionLimit.toLocaleString() }),
          t(`publishing.limits.requires.${s.requires}`),
          t(s.maxItems === 1 ? 'publishing.limits.oneFile' : 'publishing.limits.files', { count: s.maxItems }),
          s.imageFormats
            ? t('publishing.limits.images', {
                formats: s.imageFormats,
                size: s.imageMaxSize ?? '—',
                aspect: s.imageAspect ? ` · ${s.imageAspect}` : '',
              })
            : t('publishing.limits.noImages'),
          t('publishing.limits.videos', { formats: s.videoFormats, size: s.videoMaxSize, duration: s.videoDuration }),
          ...(s.mixed || s.imageFormats === null ? [] : [t('publishing.limits.notMixed')]),
        ];
        return (
          <li
            key={platform}
            data-platform={platform}
            className="rounded-lg border border-line bg-surface-2/60 px-2.5 py-1.5 text-xs leading-snug text-muted"
          >
            <span className="font-medium text-fg">{t(`publishing.platforms.${platform}`)}</span>
            <span dir="auto"> — {parts.join(' · ')}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** One checkbox per platform; only connected ones can be ticked, and each shows its state. */
export function PlatformChecklist({
  views,
  selected,
  onChange,
  testIdPrefix,
}: {
  views: PlatformView[];
  selected: SocialPlatform[];
  onChange: (selected: SocialPlatform[]) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className={cn(labelClass, 'mb-1.5')}>{t('publishing.compose.platforms')}</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {views.map(({ platform, account, status }) => {
          const connected = account?.isConnected ?? false;
          const checked = selected.includes(platform);
          return (
            <label
              key={platform}
              data-testid={`${testIdPrefix}-${platform}`}
              data-status={status}
              className={cn(
                'flex min-w-0 items-center gap-2.5 rounded-xl border px-3 py-2 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
                checked ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2/60',
                connected ? 'cursor-pointer hover:border-line-strong' : 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                disabled={!connected}
                onChange={(event) =>
                  onChange(event.target.checked ? [...selected, platform] : selected.filter((p) => p !== platform))
                }
              />
              <span
                className={cn(
                  'grid size-4 shrink-0 place-items-center rounded border',
                  checked ? 'border-accent bg-accent text-accent-fg' : 'border-line-strong',
                )}
                aria-hidden
              >
                {checked && <Check className="size-3" />}
              </span>
              <PlatformMark platform={platform} size="sm" />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{t(`publishing.platforms.${platform}`)}</span>
                <StatusLabel status={status} />
              </span>
            </label>
          );
        })}
      </div>
      <p className="text-xs text-subtle">{t('publishing.compose.platformsHint')}</p>
    </fieldset>
  );
}
