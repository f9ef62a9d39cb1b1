// The Multi-Reference tool's references: the mode switch, the upload rules, the uploader and each reference's weight,
// type and description.
import { Film, ImagePlus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { cn } from '../../ui/cn.ts';
import { fieldClass, optionSelect, rangeSlider } from './fields.tsx';
import type { createMultiReferenceStore } from './store.ts';
import { referenceAccept } from './upload-rules.ts';

type Store = ReturnType<typeof createMultiReferenceStore>;

export function ModeSwitch({ store }: { store: Store }) {
  const { t } = useTranslation();
  const { mode, busy, uploading, switchMode } = useStore(store);
  return (
    <fieldset className="flex gap-1 rounded-xl bg-surface-2 p-1">
      <legend className="sr-only">{t('multiReferenceModes.mode')}</legend>
      {(['image', 'video-to-video'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          data-testid={`mr-mode-${m}`}
          disabled={busy || uploading}
          onClick={() => switchMode(m)}
          className={cn(
            'flex flex-1 items-center justify-center gap-1.5 rounded-lg px-2 py-1.5 text-xs font-medium',
            mode === m ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
          )}
        >
          {m === 'image' ? <ImagePlus className="size-3.5" aria-hidden /> : <Film className="size-3.5" aria-hidden />}
          {t(m === 'image' ? 'multiReferenceModes.image' : 'multiReferenceModes.video')}
        </button>
      ))}
    </fieldset>
  );
}

export function ReferenceRules({ store }: { store: Store }) {
  const { t } = useTranslation();
  const { mode } = useStore(store);
  return (
    <p className="text-xs text-muted" data-testid="mr-rules">
      {mode === 'image'
        ? t('multiReferenceModes.rulesImage', { max: MULTI_REFERENCE.maxFiles, mb: MULTI_REFERENCE.imageMaxMb })
        : t('multiReferenceModes.rulesVideo', {
            max: MULTI_REFERENCE.maxFiles,
            mb: MULTI_REFERENCE.videoMaxMb,
            types: MULTI_REFERENCE.videoExtensions.join(', '),
          })}
    </p>
  );
}

export function ReferenceUploader({ store }: { store: Store }) {
  const { t } = useTranslation();
  const { mode, refs, uploading, onFiles } = useStore(store);
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center justify-center gap-2 rounded-xl border border-dashed border-line p-3 text-xs text-muted hover:bg-surface-2',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
        (refs.length >= MULTI_REFERENCE.maxFiles || uploading) && 'pointer-events-none opacity-50',
      )}
    >
      <ImagePlus className="size-4" aria-hidden />
      {uploading
        ? t('multiReference.uploading')
        : t('multiReference.addReferences', { count: refs.length, max: MULTI_REFERENCE.maxFiles })}
      <input
        type="file"
        accept={referenceAccept(mode)}
        multiple
        className="sr-only"
        data-testid="mr-upload-input"
        disabled={refs.length >= MULTI_REFERENCE.maxFiles || uploading}
        onChange={(e) => {
          void onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </label>
  );
}

export function ReferenceList({ store, tab }: { store: Store; tab: boolean }) {
  const { t } = useTranslation();
  const { refs, patchRef, removeRef } = useStore(store);
  return (
    <>
      {refs.map((ref) => (
        <div key={ref.id} data-testid="mr-reference" className="space-y-1.5 rounded-xl border border-line p-2">
          <div className="flex items-center gap-2">
            {ref.mediaType === 'video' ? (
              <video
                src={ref.url}
                muted
                preload="metadata"
                aria-label={ref.name}
                className={cn('shrink-0 rounded-md bg-surface-3 object-cover', tab ? 'size-16' : 'size-10')}
              />
            ) : (
              <img
                src={ref.url}
                alt={ref.name}
                className={cn('shrink-0 rounded-md bg-surface-3 object-cover', tab ? 'size-16' : 'size-10')}
              />
            )}
            <span className="min-w-0 flex-1 truncate text-xs">{ref.name}</span>
            <button
              type="button"
              aria-label={t('multiReference.remove')}
              className="grid size-8 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              onClick={() => removeRef(ref.id)}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </div>
          {rangeSlider(t('multiReference.weight'), 'mr-weight', MULTI_REFERENCE.weight, ref.weight, (weight) =>
            patchRef(ref.id, { weight }),
          )}
          {optionSelect(
            t,
            ref.type,
            MULTI_REFERENCE.referenceTypes,
            (type) => patchRef(ref.id, { type }),
            t('multiReference.type'),
            'mr-type',
          )}
          <input
            className={fieldClass}
            aria-label={t('multiReference.descriptionPlaceholder')}
            placeholder={t('multiReference.descriptionPlaceholder')}
            value={ref.description}
            onChange={(e) => patchRef(ref.id, { description: e.target.value })}
          />
        </div>
      ))}
    </>
  );
}
