import { CircleAlert, ImagePlus, Loader2, X } from 'lucide-react';
import { type DragEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptFor } from '../../api/upload-rules.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { cn } from '../../ui/cn.ts';
import type { ImageInputs } from './uploads.ts';

/**
 * A drop zone for up to `max` images (character or product images): drop files on it or press it to pick
 * them. Only images are taken; each file is uploaded at once and shown with its state.
 */
export function ImageDropZone({
  inputs,
  max,
  label,
  hint,
  testId,
  disabled,
}: {
  inputs: ImageInputs;
  max: number;
  label: string;
  hint?: string;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const full = inputs.free === 0 || disabled;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (full) return;
    const files = [...event.dataTransfer.files];
    if (files.length > 0) void inputs.add(files);
  };

  return (
    <div className="min-w-0 space-y-2" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        <span className="text-xs tabular-nums text-subtle" data-testid={`${testId}-count`}>
          {t('personas.images.count', { count: inputs.items.length, max })}
        </span>
      </div>
      <label
        htmlFor={id}
        onDragOver={(event) => {
          event.preventDefault();
          if (!full) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border border-dashed px-4 py-5 text-center transition-colors',
          'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent',
          dragging ? 'border-accent bg-accent-soft' : 'border-line-strong bg-surface-2/50 hover:border-accent/60',
          full && 'pointer-events-none cursor-not-allowed opacity-50',
        )}
      >
        <ImagePlus className="size-5 text-accent" aria-hidden />
        <span className="text-sm font-medium text-fg">
          {full && !disabled ? t('personas.images.full') : t('personas.images.drop')}
        </span>
        {hint && <span className="text-xs text-subtle">{hint}</span>}
        <input
          id={id}
          type="file"
          className="sr-only"
          accept={acceptFor(['image'])}
          multiple={max > 1}
          disabled={full}
          data-testid={`${testId}-input`}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length > 0) void inputs.add(files);
          }}
        />
      </label>
      {inputs.notice && (
        <p role="alert" className="flex items-start gap-1.5 text-xs text-warning" data-testid={`${testId}-notice`}>
          <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            {[
              inputs.notice.notImages > 0 ? t('personas.images.notImages', { count: inputs.notice.notImages }) : null,
              inputs.notice.overLimit > 0 ? t('personas.images.overLimit', { max }) : null,
            ]
              .filter(Boolean)
              .join(' ')}
          </span>
        </p>
      )}
      {inputs.items.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {inputs.items.map((item) => (
            <li
              key={item.key}
              data-testid={`${testId}-item`}
              data-status={item.status}
              title={item.error ? localizeMessage(item.error) : item.name}
              className={cn(
                'relative size-16 shrink-0 overflow-hidden rounded-lg border bg-surface-3',
                item.status === 'error' ? 'border-danger' : 'border-line',
              )}
            >
              <img src={item.previewUrl} alt={item.name} className="size-full object-cover" />
              {item.status === 'uploading' && (
                <span className="absolute inset-0 grid place-items-center bg-black/55 text-white">
                  <Loader2 className="size-4 animate-spin" aria-hidden />
                  <span className="sr-only">{t('personas.images.uploading')}</span>
                </span>
              )}
              {item.status === 'error' && (
                <span className="absolute inset-0 grid place-items-center bg-danger/70 text-white">
                  <CircleAlert className="size-5" aria-hidden />
                  <span className="sr-only">{localizeMessage(item.error ?? '')}</span>
                </span>
              )}
              <button
                type="button"
                onClick={() => inputs.remove(item.key)}
                aria-label={t('personas.images.remove', { name: item.name })}
                className="absolute end-0.5 top-0.5 grid size-5 place-items-center rounded-full bg-black/70 text-white hover:bg-black focus-visible:outline-2 focus-visible:outline-accent"
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      {inputs.items.some((item) => item.status === 'error') && (
        <p role="alert" className="text-xs text-danger">
          {t('personas.messages.uploadFailed')}
        </p>
      )}
    </div>
  );
}
