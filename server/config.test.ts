import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
    const config = loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' });
    expect(config.production).toBe(true);
    expect(config.SEED_DEMO).toBe(false);
    expect(config.PAYMENTS).toBe('off');
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.embedded.mail).toBe(false);
    expect(config.LOCAL_ENGINES).toBe(false);
  });

  it('production takes explicit choices: demo seed, a staging checkout, Stripe, an open HOST', () => {
    const base = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' };
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
});
