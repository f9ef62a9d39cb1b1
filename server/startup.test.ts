import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { isLoopbackHost, startupWarnings } from './startup.ts';

const DEMO = ['admin@genpro.local', 'brand@genpro.local'];

describe('start-up warnings', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'studio.example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('says nothing in demo mode on loopback', () => {
    expect(startupWarnings(loadConfig({}), DEMO)).toEqual([]);
  });

  it('warns that demo accounts are reachable once HOST opens the studio', () => {
    const [warning, ...rest] = startupWarnings(loadConfig({ HOST: '0.0.0.0' }), DEMO);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/HOST=0\.0\.0\.0 opens the studio to other machines/);
    expect(warning).toContain('admin@genpro.local');
    expect(startupWarnings(loadConfig({ HOST: '0.0.0.0' }), [])).toEqual([]);
  });

  it('warns about a staging checkout, a demo seed and the local engines in production', () => {
    const warnings = startupWarnings(
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        TRUST_PROXY: 'false',
        PUBLIC_URL: 'https://studio.example',
        PAYMENTS: 'local',
        SEED_DEMO: 'true',
        LOCAL_ENGINES: 'true',
      }),
      [],
    );
    expect(warnings).toEqual([
      expect.stringMatching(/^PAYMENTS=local in production/),
      expect.stringMatching(/^SEED_DEMO=true in production/),
      expect.stringMatching(/^LOCAL_ENGINES=true in production/),
    ]);
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
    };
    expect(startupWarnings(loadConfig(production), [])).toEqual([]);
    expect(
      startupWarnings(
        loadConfig({
          ...production,
          PUBLIC_URL: 'http://studio.lan',
          SECURE_COOKIES: 'false',
          SANDBOX_NETWORKS: 'true',
        }),
        [],
      ),
    ).toEqual([
      expect.stringMatching(/^SECURE_COOKIES=false in production: session cookies are sent without Secure/),
      expect.stringMatching(/^SANDBOX_NETWORKS=true in production/),
    ]);
    // Demo mode serves the local engines by default, without a warning.
    expect(startupWarnings(loadConfig({}), [])).toEqual([]);
  });
});
