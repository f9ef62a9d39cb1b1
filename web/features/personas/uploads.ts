// Image inputs of the persona forms (character images, product images): dropped or picked files are split
// into images we can take and the rest, then uploaded one by one through POST /api/upload.
import { useRef, useState } from 'react';
import { UploadError, uploadFiles } from '../../api/uploads.ts';
import { type ImageInput, splitImageFiles, uploadedUrls } from './form.ts';

let counter = 0;

/** A list of uploaded images with at most `max` entries. */
export function useImageInputs(max: number) {
  const [items, setItems] = useState<ImageInput[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [notice, setNotice] = useState<{ notImages: number; overLimit: number } | null>(null);

  async function add(files: readonly File[]) {
    const { accepted, notImages, overLimit } = splitImageFiles(files, max - itemsRef.current.length);
    setNotice(notImages > 0 || overLimit > 0 ? { notImages, overLimit } : null);
    if (accepted.length === 0) return;
    const added = accepted.map<ImageInput>((file) => ({
      key: `img-${++counter}`,
      name: file.name,
      previewUrl: URL.createObjectURL(file),
      url: null,
      status: 'uploading',
    }));
    setItems((current) => [...current, ...added]);
    const results = await uploadFiles(accepted);
    setItems((current) =>
      current.map((item) => {
        const index = added.findIndex((a) => a.key === item.key);
        if (index < 0) return item;
        const result = results[index];
        if (result?.status === 'fulfilled') return { ...item, url: result.value.url, status: 'done' };
        const reason = result?.status === 'rejected' ? result.reason : null;
        return { ...item, status: 'error', error: reason instanceof UploadError ? reason.message : undefined };
      }),
    );
  }

  function remove(key: string) {
    setItems((current) => {
      const gone = current.find((item) => item.key === key);
      if (gone?.previewUrl.startsWith('blob:')) URL.revokeObjectURL(gone.previewUrl);
      return current.filter((item) => item.key !== key);
    });
  }

  function clear() {
    for (const item of itemsRef.current) if (item.previewUrl.startsWith('blob:')) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
    setNotice(null);
  }

  return {
    items,
    add,
    remove,
    clear,
    notice,
    urls: uploadedUrls(items),
    uploading: items.some((item) => item.status === 'uploading'),
    free: Math.max(0, max - items.length),
  };
}

export type ImageInputs = ReturnType<typeof useImageInputs>;
