// zod keeps its global config (what `z.config` sets) on globalThis.__zod_globalConfig and reuses an object that is
// already there, so it is set here without importing zod: even zod/v4/core's `config` drags ~4 KB gzipped of zod
// into the entry chunk, and most pages load zod later, if at all (zod-config.test.ts checks zod still reads it).

// Imported first by main.tsx, before any schema exists: zod's JIT parsers probe `new Function`, which
// the Content-Security-Policy (no 'unsafe-eval') refuses and Chromium reports as a violation.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
