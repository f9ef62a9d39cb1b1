import { describe, expect, it } from 'vitest';
import './zod-config.ts';
import { z } from 'zod';

describe('zod config set before zod loads', () => {
  it('is the config zod reads: jitless, so no parser probes new Function (refused by the CSP)', () => {
    expect(z.config().jitless).toBe(true);
  });
});
