// From zod/v4/core (the same global config `z.config` sets): importing `z` here would put all of zod in the
// entry chunk, over the dashboard shell's first-load budget.
import { config } from 'zod/v4/core';

// Imported first by main.tsx, before any schema exists: zod's JIT parsers probe `new Function`, which
// the Content-Security-Policy (no 'unsafe-eval') refuses and Chromium reports as a violation.
config({ jitless: true });
