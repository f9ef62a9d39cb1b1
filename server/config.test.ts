import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_ADMIN_EMAIL, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.embedded).toEqual({ database: true, storage: true, mail: true });
    expect(config.S3_REGION).toBe('eu-north-1');
    expect(config.RUN_WORKERS).toBe(true);
    expect(config.UPLOAD_MAX_MB).toBe(50);
  });

  it('switches each part to its production counterpart by environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/genpro',
      S3_BUCKET: 'media',
      SMTP_URL: 'smtp://mail:25',
      RUN_WORKERS: 'false',
    });
    expect(config.PORT).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.embedded).toEqual({ database: false, storage: false, mail: false });
    expect(config.RUN_WORKERS).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['RUN_WORKERS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
  ])('a bad %s stops start-up with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('never echoes a secret value in the error', () => {
    try {
      loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('DATABASE_URL');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

describe('the two modes', () => {
  it('demo mode (npm start): loopback only, demo accounts, the local checkout, the outbox', () => {
    const config = loadConfig({});
    expect(config.production).toBe(false);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.hostSet).toBe(false);
    expect(config.SEED_DEMO).toBe(true);
    expect(config.PAYMENTS).toBe('local');
    expect(config.embedded.mail).toBe(true);
    expect(config.LOCAL_ENGINES).toBe(true);
  });

  it('production refuses to start without SMTP_URL, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL: required when NODE_ENV=production/);
  });

  it('production with nothing but SMTP_URL: no demo accounts, no payments, loopback only', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
    });
    expect(config.production).toBe(true);
    expect(config.SEED_DEMO).toBe(false);
    expect(config.PAYMENTS).toBe('off');
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.embedded.mail).toBe(false);
    expect(config.LOCAL_ENGINES).toBe(false);
  });

  it('production takes explicit choices: demo seed, a staging checkout, Stripe, an open HOST', () => {
    const base = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
    };
    expect(loadConfig({ ...base, SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
    expect(loadConfig({ ...base, PAYMENTS: 'local' }).PAYMENTS).toBe('local');
    expect(loadConfig({ ...base, LOCAL_ENGINES: 'true' }).LOCAL_ENGINES).toBe(true);
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_x' }).PAYMENTS).toBe('stripe');
    const open = loadConfig({ ...base, HOST: '0.0.0.0' });
    expect(open.HOST).toBe('0.0.0.0');
    expect(open.hostSet).toBe(true);
    expect(() => loadConfig({ ...base, PAYMENTS: 'stripe' })).toThrow(/PAYMENTS: "stripe" needs STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ PAYMENTS: 'free' })).toThrow(/PAYMENTS/);
  });
});

describe('APP_SECRET and MEDIA_URL_SECRET', () => {
  const production = {
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://mail:25',
    TRUST_PROXY: 'false',
    PUBLIC_URL: 'https://studio.example',
    DATABASE_URL: 'postgres://u@db/genpro',
  };
  const secrets = { APP_SECRET: 'a'.repeat(40), MEDIA_URL_SECRET: 'm'.repeat(40) };

  it('are required in production on PostgreSQL, both named, with why and where an earlier value is', () => {
    let message = '';
    try {
      loadConfig({ ...production, APP_SECRET: secrets.APP_SECRET });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain(
      'APP_SECRET and MEDIA_URL_SECRET: both required when NODE_ENV=production with DATABASE_URL',
    );
    expect(message).toContain('(unset: MEDIA_URL_SECRET)');
    expect(message).toContain('protects nothing in a database dump');
    expect(message).toContain('DATA_DIR/secrets');
    expect(message).toContain('server_secrets');
    expect(message).not.toContain(secrets.APP_SECRET);
    expect(() => loadConfig(production)).toThrow(/\(unset: APP_SECRET, MEDIA_URL_SECRET\)/);
    expect(loadConfig({ ...production, ...secrets }).production).toBe(true);
  });

  it('may stay unset in production on the embedded database, and outside production', () => {
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        TRUST_PROXY: 'false',
        PUBLIC_URL: 'https://studio.example',
      }).APP_SECRET,
    ).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: production.DATABASE_URL }).MEDIA_URL_SECRET).toBeUndefined();
  });

  it('take 32 characters, or base64url: and the text of 32 bytes', () => {
    expect(() => loadConfig({ APP_SECRET: 'short' })).toThrow(/APP_SECRET: must be at least 32 characters/);
    const bytes = Buffer.alloc(48, 7).toString('base64url');
    expect(loadConfig({ MEDIA_URL_SECRET: `base64url:${bytes}` }).MEDIA_URL_SECRET).toBe(`base64url:${bytes}`);
    expect(() => loadConfig({ MEDIA_URL_SECRET: `base64url:${'!'.repeat(40)}` })).toThrow(
      /MEDIA_URL_SECRET: after base64url: must come the base64url text of at least 32 bytes/,
    );
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  ])('%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses anything else, naming it', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('tells unset (or empty) apart from an explicit false', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('is required in production, named with what to set; false confirms there is no proxy', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', PUBLIC_URL: 'https://studio.example' };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/TRUST_PROXY: required when NODE_ENV=production/);
    expect(() => loadConfig(production)).toThrow(/set it to the proxy's addresses/);
    expect(() => loadConfig(production)).toThrow(/TRUST_PROXY=false to confirm it/);
    expect(loadConfig({ ...production, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.2' }).TRUST_PROXY).toEqual(['10.0.0.2']);
    // The embedded demo (npm start) starts unconfigured.
    expect(loadConfig({}).production).toBe(false);
  });
});

describe('PUBLIC_URL and SECURE_COOKIES in production', () => {
  const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', TRUST_PROXY: 'false' };

  it('refuses an unset or http:// PUBLIC_URL, naming it and the opt-out', () => {
    expect(() => loadConfig(production)).toThrow(
      /PUBLIC_URL: must be the studio's public https:\/\/ address when NODE_ENV=production \(unset, it would be http:\/\/localhost:3000\)/,
    );
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://studio.example' })).toThrow(
      /PUBLIC_URL: .*\(got http:\/\/studio\.example\).*SECURE_COOKIES=false/,
    );
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://studio.example', SECURE_COOKIES: 'true' })).toThrow(
      /PUBLIC_URL/,
    );
  });

  it('sends Secure cookies with an https:// PUBLIC_URL; SECURE_COOKIES=false is the plain-HTTP opt-out', () => {
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://studio.example' }).secureCookies).toBe(true);
    const plain = loadConfig({ ...production, PUBLIC_URL: 'http://studio.lan', SECURE_COOKIES: 'false' });
    expect(plain.secureCookies).toBe(false);
    // Outside production: Secure follows PUBLIC_URL unless SECURE_COOKIES says otherwise.
    expect(loadConfig({}).secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://studio.example' }).secureCookies).toBe(true);
    expect(loadConfig({ SECURE_COOKIES: 'true' }).secureCookies).toBe(true);
  });
});

describe('SANDBOX_NETWORKS', () => {
  it('is on outside production and off in production unless set', () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
    };
    expect(loadConfig({}).SANDBOX_NETWORKS).toBe(true);
    expect(loadConfig({ SANDBOX_NETWORKS: 'false' }).SANDBOX_NETWORKS).toBe(false);
    expect(loadConfig(production).SANDBOX_NETWORKS).toBe(false);
    expect(loadConfig({ ...production, SANDBOX_NETWORKS: 'true' }).SANDBOX_NETWORKS).toBe(true);
  });
});

describe('PUBLIC_PERSONA_ADMIN_EMAIL', () => {
  it('is the demo admin in a demo, nobody in production, and the variable when set', () => {
    expect(loadConfig({}).PUBLIC_PERSONA_ADMIN_EMAIL).toBe(DEMO_ADMIN_EMAIL);
    expect(loadConfig({ SEED_DEMO: 'false' }).PUBLIC_PERSONA_ADMIN_EMAIL).toBeUndefined();
    expect(loadConfig({ PUBLIC_PERSONA_ADMIN_EMAIL: 'Curator@Studio.Example' }).PUBLIC_PERSONA_ADMIN_EMAIL).toBe(
      'curator@studio.example',
    );
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
    };
    expect(loadConfig(production).PUBLIC_PERSONA_ADMIN_EMAIL).toBeUndefined();
  });
});
