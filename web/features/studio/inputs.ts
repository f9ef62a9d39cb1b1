// Adding images and videos to the Creator form: uploads (three at a time, sizes checked first) or assets
// picked from the library.
import { toast } from 'sonner';
import type { Asset } from '../../../common/api/assets.ts';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { limitUploadBatch, uploadKindOf, uploadSizeError } from '../../api/upload-rules.ts';
import { UploadError, uploadFiles } from '../../api/uploads.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { type InputSlot, type MediaInput, SINGLE_SLOTS, useStudio } from './store.ts';

let counter = 0;
const nextKey = () => `in-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Uploads picked or dropped files into a slot; files of the wrong kind are refused with the spec's message. */
export async function addFiles(slot: InputSlot, kind: 'image' | 'video', picked: readonly File[]): Promise<void> {
  const { addInputs, updateInput } = useStudio.getState();
  const single = SINGLE_SLOTS.includes(slot);
  const { kept, dropped } = limitUploadBatch(single ? picked.slice(0, 1) : picked);
  if (dropped > 0) toast.error(localizeMessage(MESSAGES.upload.tooManyFiles(UPLOAD.maxFiles)));

  const files = kept.filter((file) => uploadKindOf(file) === kind);
  if (files.length < kept.length) toast.error(localizeMessage(MESSAGES.upload.unsupportedType));
  if (files.length === 0) return;

  const inputs: MediaInput[] = files.map((file) => {
    const tooLarge = uploadSizeError(file.size);
    return {
      key: nextKey(),
      name: file.name,
      kind,
      status: tooLarge ? 'error' : 'uploading',
      url: null,
      previewUrl: kind === 'image' ? URL.createObjectURL(file) : null,
      progress: 0,
      error: tooLarge,
    };
  });
  addInputs(slot, inputs);

  const pending = inputs.flatMap((input, index) =>
    input.status === 'uploading' ? [{ input, file: files[index] }] : [],
  );
  for (const input of inputs) if (input.error) toast.error(localizeMessage(input.error));
  if (pending.length === 0) return;

  const results = await uploadFiles(
    pending.map((p) => p.file),
    { onProgress: (index, fraction) => updateInput(slot, pending[index].input.key, { progress: fraction }) },
  );
  results.forEach((result, index) => {
    const { key } = pending[index].input;
    if (result.status === 'fulfilled') {
      updateInput(slot, key, { status: 'ready', url: result.value.url, progress: 1, error: null });
      return;
    }
    const error = result.reason;
    const message = error instanceof Error ? error.message : MESSAGES.upload.failed;
    updateInput(slot, key, { status: 'error', error: message });
    const detail =
      error instanceof UploadError && error.detail && error.detail !== message
        ? localizeMessage(error.detail)
        : undefined;
    toast.error(localizeMessage(message), { description: detail });
  });
}

/** Adds library assets to a slot (they are already stored: no upload). */
export function addAssets(slot: InputSlot, assets: readonly Asset[]): void {
  const kind = slot === 'videoInput' ? 'video' : 'image';
  addStored(
    slot,
    assets.map((asset) => ({
      url: asset.url,
      name: asset.prompt ?? asset.id,
      previewUrl: asset.thumbnail_url ?? (kind === 'image' ? asset.url : null),
    })),
  );
}

/** Adds media already stored (a library asset, a result) to a slot; a url already in the slot is not added twice. */
export function addStored(
  slot: InputSlot,
  media: ReadonlyArray<{ url: string; name: string; previewUrl: string | null }>,
): void {
  const kind = slot === 'videoInput' ? 'video' : 'image';
  const { inputs, addInputs } = useStudio.getState();
  const present = new Set(inputs[slot].map((input) => input.url));
  const added = media.filter((item) => !present.has(item.url));
  if (added.length === 0) return;
  addInputs(
    slot,
    added.map((item) => ({
      key: nextKey(),
      name: item.name,
      kind,
      status: 'ready',
      url: item.url,
      previewUrl: item.previewUrl,
      progress: 1,
      error: null,
    })),
  );
}
