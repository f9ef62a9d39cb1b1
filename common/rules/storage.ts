import { MESSAGES } from '../messages.ts';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
const SYMBOLS = { kilobyte: 'KB', megabyte: 'MB', gigabyte: 'GB' } as const;

/**
 * A storage figure in the unit the studio shows it in (an Intl.NumberFormat unit): kilobytes below a
 * tenth of a megabyte, megabytes below a gigabyte, gigabytes from one.
 */
export function storageSize(bytes: number): { value: number; unit: keyof typeof SYMBOLS } {
  if (bytes >= GB) return { value: bytes / GB, unit: 'gigabyte' };
  if (bytes >= MB / 10) return { value: bytes / MB, unit: 'megabyte' };
  return { value: bytes / KB, unit: 'kilobyte' };
}

/** "12.0 KB", "103.4 MB", "5.0 GB". */
export function formatStorageSize(bytes: number): string {
  const { value, unit } = storageSize(bytes);
  return `${value.toFixed(1)} ${SYMBOLS[unit]}`;
}

/** 'Storage full: 5.0 GB of 5.0 GB used. Delete assets to free space.' */
export function storageFullMessage(usedBytes: number, limitBytes: number): string {
  return MESSAGES.upload.storageFull(formatStorageSize(usedBytes), formatStorageSize(limitBytes));
}
