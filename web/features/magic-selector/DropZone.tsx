// A drop zone for one image file (Magic Selector's base and reference): a click opens the file picker, a drop takes
// the file; other extensions and several files at once are refused with a message key.
import { ImagePlus } from 'lucide-react';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import { readAsDataUrl } from './api.ts';

const ACCEPT = MAGIC_SELECTOR.extensions.map((ext) => `.${ext}`).join(',');
function acceptedFile(files: FileList | null): { file: File } | { error: string } | null {
  if (!files || files.length === 0) return null;
  if (files.length > 1) return { error: 'magicSelector.errors.oneFile' };
  const file = files[0] as File;
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(MAGIC_SELECTOR.extensions as readonly string[]).includes(ext))
    return { error: 'magicSelector.errors.fileType' };
  return { file };
}

export function DropZone({
  label,
  image,
  testId,
  onFile,
  onError,
}: {
  label: string;
  image: string | null;
  testId: string;
  onFile: (dataUrl: string) => void;
  onError: (key: string) => void;
}) {
  const { t } = useTranslation();
  const take = async (files: FileList | null) => {
    const picked = acceptedFile(files);
    if (!picked) return;
    if ('error' in picked) return onError(picked.error);
    onFile(await readAsDataUrl(picked.file));
  };
  return (
    <label
      className="flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border border-dashed border-line bg-surface-2 p-3 text-center text-xs text-muted hover:border-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
      onDragOver={(e: DragEvent) => e.preventDefault()}
      onDrop={(e: DragEvent) => {
        e.preventDefault();
        void take(e.dataTransfer.files);
      }}
    >
      {image ? (
        <img src={image} alt="" className="max-h-20 rounded-md object-contain" />
      ) : (
        <ImagePlus className="size-5" aria-hidden />
      )}
      <span>{label}</span>
      <span className="text-xs text-subtle">{t('magicSelector.formats')}</span>
      <input
        type="file"
        accept={ACCEPT}
        className="sr-only"
        data-testid={testId}
        onChange={(e) => {
          void take(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
    </label>
  );
}
