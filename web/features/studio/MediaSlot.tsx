import { CircleAlert, Film, FolderOpen, Loader2, Upload, X } from 'lucide-react';
import { type DragEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import { acceptFor } from '../../api/upload-rules.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { disabledButtonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { addAssets, addFiles } from './inputs.ts';
import { type InputSlot, type MediaInput, SINGLE_SLOTS, useStudio } from './store.ts';

function InputTile({ input, onRemove }: { input: MediaInput; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <li
      className={cn(
        'group relative size-16 shrink-0 overflow-hidden rounded-lg border bg-surface-3',
        input.status === 'error' ? 'border-danger' : 'border-line',
      )}
      data-testid="media-input"
      data-status={input.status}
      title={input.error ? localizeMessage(input.error) : input.name}
    >
      {input.previewUrl && (input.kind === 'image' || !input.previewUrl.startsWith('blob:')) ? (
        <img src={input.previewUrl} alt={input.name} className="size-full object-cover" />
      ) : (
        <span className="flex size-full flex-col items-center justify-center gap-0.5 px-1 text-subtle">
          <Film className="size-5" aria-hidden />
          <span className="w-full truncate text-center text-xs">{input.name}</span>
        </span>
      )}
      {input.status === 'uploading' && (
        <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-black/55 text-xs font-medium text-white">
          <Loader2 className="size-4 animate-spin" aria-hidden />
          {Math.round(input.progress * 100)}%
        </span>
      )}
      {input.status === 'error' && (
        <span className="absolute inset-0 grid place-items-center bg-danger/70 text-white">
          <CircleAlert className="size-5" aria-hidden />
          <span className="sr-only">{input.error ? localizeMessage(input.error) : ''}</span>
        </span>
      )}
      <button
        type="button"
        onClick={onRemove}
        aria-label={t('studio.inputs.remove', { name: input.name })}
        className="absolute end-0.5 top-0.5 grid size-5 place-items-center rounded-full bg-black/70 text-white opacity-90 hover:bg-black"
      >
        <X className="size-3" aria-hidden />
      </button>
    </li>
  );
}

/**
 * One image or video input of the Creator form: its items, an upload button (several files, three uploads at a
 * time) and a library picker. Files can also be dropped on it.
 */
export function MediaSlot({
  slot,
  kind,
  label,
  description,
  max = UPLOAD.maxFiles,
}: {
  slot: InputSlot;
  kind: 'image' | 'video';
  label: string;
  description?: string;
  max?: number;
}) {
  const { t } = useTranslation();
  const id = useId();
  const items = useStudio((s) => s.inputs[slot]);
  const removeInput = useStudio((s) => s.removeInput);
  const [picking, setPicking] = useState(false);
  const [dragging, setDragging] = useState(false);
  const single = SINGLE_SLOTS.includes(slot);
  const capacity = single ? 1 : Math.max(0, max - items.length);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) void addFiles(slot, kind, files);
  };

  return (
    <fieldset
      className={cn(
        'min-w-0 space-y-2 rounded-xl border border-dashed p-3 transition-colors',
        dragging ? 'border-accent bg-accent-soft' : 'border-line-strong bg-surface-2/40',
      )}
      data-testid={`slot-${slot}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <legend className="sr-only">{label}</legend>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className={cn(labelClass, 'text-fg')} aria-hidden>
            {label}
          </p>
          {description && <p className="mt-0.5 text-xs leading-snug text-subtle">{description}</p>}
        </div>
        {!single && items.length > 0 && (
          <span className="shrink-0 text-xs tabular-nums text-subtle">{items.length}</span>
        )}
      </div>
      {items.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {items.map((input) => (
            <InputTile key={input.key} input={input} onRemove={() => removeInput(slot, input.key)} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <label
          htmlFor={id}
          className={cn(
            'inline-flex h-8 items-center gap-1.5 rounded-lg border border-line bg-surface px-2.5 text-xs font-medium text-fg transition-colors hover:border-line-strong',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
            capacity === 0 && 'pointer-events-none opacity-50',
          )}
        >
          <Upload className="size-3.5" aria-hidden />
          {single && items.length > 0 ? t('studio.inputs.replace') : t('studio.inputs.upload')}
          <input
            id={id}
            type="file"
            className="sr-only"
            accept={acceptFor([kind])}
            multiple={!single}
            disabled={capacity === 0}
            data-testid="upload-input"
            aria-label={`${t('studio.inputs.upload')}: ${label}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              if (files.length > 0) void addFiles(slot, kind, files.slice(0, capacity));
            }}
          />
        </label>
        <button
          type="button"
          onClick={() => setPicking(true)}
          disabled={capacity === 0}
          className={cn(
            'inline-flex h-8 items-center gap-1.5 rounded-lg border border-line bg-surface px-2.5 text-xs font-medium text-fg transition-colors hover:border-line-strong',
            disabledButtonClass,
          )}
          data-testid="pick-from-library"
        >
          <FolderOpen className="size-3.5" aria-hidden />
          {t('studio.inputs.fromLibrary')}
        </button>
      </div>
      <AssetPicker
        open={picking}
        onOpenChange={setPicking}
        kind={kind}
        max={Math.max(1, capacity)}
        onPick={(assets) => addAssets(slot, assets)}
      />
    </fieldset>
  );
}
