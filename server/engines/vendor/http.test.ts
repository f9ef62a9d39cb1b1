import { describe, expect, it } from 'vitest';
import { httpFailure } from './http.ts';

describe('httpFailure', () => {
  it('keeps a refused request in the vendor words (vendor_rejected) for the user to act on', () => {
    const error = httpFailure('Runway', 400, { error: 'The input image could not be read' });
    expect(error).toMatchObject({ code: 'vendor_rejected', message: 'Runway: The input image could not be read' });
  });

  it('never repeats the vendor words for a refused key: some vendors echo the key into the logs', () => {
    for (const status of [401, 403]) {
      const error = httpFailure('Runway', status, { error: 'Invalid API key rw-secret-123' });
      expect(error.code).toBe('vendor_auth');
      expect(error.message).not.toContain('rw-secret-123');
      expect(error.message).toBe(
        `Runway: the studio's API key was refused (HTTP ${status}); check the key in the configuration`,
      );
    }
  });
});
