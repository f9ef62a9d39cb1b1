import { randomUUID } from 'node:crypto';
import {
  STORAGE_CLASSES,
  type StorageClass,
  TEMPORARY_MEDIA_TTL_SECONDS,
  TEMPORARY_STORAGE_CLASSES,
} from '../../../common/api/media.constants.ts';

/**
 * Object keys are made by the server only, never from user-supplied path segments:
 *   temporary classes  temp/<class>/<uuid>.<ext>
 *   permanent classes  <class>/<yyyy>/<mm>/<uuid>.<ext>
 *   persona media      persona/<personaId>/<yyyy>/<mm>/<uuid>.<ext> (class `persona` with a persona id)
 */
export function isTemporaryClass(storageClass: StorageClass): boolean {
  return TEMPORARY_STORAGE_CLASSES.includes(storageClass);
}

export function isStorageClass(value: string): value is StorageClass {
  return (STORAGE_CLASSES as readonly string[]).includes(value);
}

const EXT = /^[a-z0-9]{1,8}$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function makeKey(
  storageClass: StorageClass,
  ext: string,
  now: Date = new Date(),
  personaId?: string | null,
): string {
  const extension = ext.toLowerCase().replace(/^\./, '');
  if (!EXT.test(extension)) throw new RangeError(`invalid file extension: ${ext}`);
  if (!isStorageClass(storageClass)) throw new RangeError(`unknown storage class: ${storageClass}`);
  const name = `${randomUUID()}.${extension}`;
  if (isTemporaryClass(storageClass)) return `temp/${storageClass}/${name}`;
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  if (storageClass === 'persona' && personaId && UUID.test(personaId)) {
    return `${storageClass}/${personaId.toLowerCase()}/${yyyy}/${mm}/${name}`;
  }
  return `${storageClass}/${yyyy}/${mm}/${name}`;
}

/** When an object of this class written at `now` expires; null for permanent classes. */
export function expiryFor(storageClass: StorageClass, now: Date): Date | null {
  return isTemporaryClass(storageClass) ? new Date(now.getTime() + TEMPORARY_MEDIA_TTL_SECONDS * 1000) : null;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * A key read from a URL is accepted only if it could have been made by the server: relative,
 * 2–8 segments of safe characters, no dot segments, no hidden names, no `..` anywhere.
 */
export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) return false;
  if (key.includes('..') || key.startsWith('/') || key.includes('\\')) return false;
  const segments = key.split('/');
  if (segments.length < 2 || segments.length > 8) return false;
  return segments.every((segment) => SEGMENT.test(segment));
}
