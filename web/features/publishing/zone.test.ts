import { describe, expect, it } from 'vitest';
import { localZone, preferredZone, zoneOptions } from './zone.ts';

describe('schedule time zone', () => {
  it('starts in the zone the user chose in Settings, else the browser’s', () => {
    expect(preferredZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    // UTC is the account default, not a choice: the browser's zone wins.
    expect(preferredZone('UTC')).toBe(localZone());
    expect(preferredZone(null)).toBe(localZone());
    expect(preferredZone('Not/AZone')).toBe(localZone());
  });

  it('lists the zone in use even when it is not local or a preset', () => {
    const values = zoneOptions((z) => z, 'America/Bogota').map((o) => o.value);
    expect(values[0]).toBe('America/Bogota');
    expect(values).toContain('Asia/Tokyo');
    expect(zoneOptions((z) => z, 'Asia/Tokyo').filter((o) => o.value === 'Asia/Tokyo')).toHaveLength(1);
  });
});
