import { describe, expect, it } from 'vitest';
import { formatStorageSize, storageFullMessage } from './storage.ts';

describe('storage figures', () => {
  it('shows KB below a tenth of a MB, MB below a GB, GB from one', () => {
    expect(formatStorageSize(0)).toBe('0.0 KB');
    expect(formatStorageSize(12 * 1024)).toBe('12.0 KB');
    expect(formatStorageSize(103.4 * 1024 * 1024)).toBe('103.4 MB');
    expect(formatStorageSize(5120 * 1024 * 1024)).toBe('5.0 GB');
  });

  it('says how much is used and the limit when storage is full', () => {
    const gb5 = 5120 * 1024 * 1024;
    expect(storageFullMessage(gb5, gb5)).toBe('Storage full: 5.0 GB of 5.0 GB used. Delete assets to free space.');
  });
});
