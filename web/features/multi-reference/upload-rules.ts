// Which files the Multi-Reference panel takes (canvas spec 7): image mode takes images up to 10 MB;
// video-to-video mode takes images and videos (mp4, mov, webm, avi) up to 100 MB. Pure.
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { uploadSizeError } from '../../api/upload-rules.ts';

export type MultiReferenceMode = 'image' | 'video-to-video';

/** What the file input offers in each mode. */
export function referenceAccept(mode: MultiReferenceMode): string {
  if (mode === 'image') return 'image/*';
  return [
    'image/*',
    ...MULTI_REFERENCE.videoExtensions.map((e) => `.${e}`),
    'video/mp4',
    'video/quicktime',
    'video/webm',
    'video/x-msvideo',
  ].join(',');
}

/** The file's kind in this mode, or the message that refuses it. */
export function checkReferenceFile(
  file: { name: string; type: string; size: number },
  mode: MultiReferenceMode,
): { mediaType: 'image' | 'video'; maxMb: number } | { error: string } {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const isVideo =
    (MULTI_REFERENCE.videoExtensions as readonly string[]).includes(ext) &&
    (file.type === '' || file.type.startsWith('video/'));
  const isImage = file.type.startsWith('image/') && !isVideo;
  if (mode === 'image') {
    if (!isImage) return { error: MESSAGES.multiReference.unsupportedType };
    const tooLarge = uploadSizeError(file.size, MULTI_REFERENCE.imageMaxMb);
    if (tooLarge) return { error: tooLarge };
    return { mediaType: 'image', maxMb: MULTI_REFERENCE.imageMaxMb };
  }
  if (!isImage && !isVideo) return { error: MESSAGES.multiReference.unsupportedType };
  const tooLarge = uploadSizeError(file.size, MULTI_REFERENCE.videoMaxMb);
  if (tooLarge) return { error: tooLarge };
  return { mediaType: isVideo ? 'video' : 'image', maxMb: MULTI_REFERENCE.videoMaxMb };
}
