import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { findPackage, listPackages } from './packages.ts';
import { toReturnPath } from './urls.ts';

describe('top-up packages configuration', () => {
  it('defaults to several packages with exactly one popular', () => {
    const packages = listPackages(loadConfig({}));
    expect(packages.length).toBeGreaterThanOrEqual(3);
    expect(packages.filter((p) => p.popular)).toHaveLength(1);
    for (const p of packages) expect(p.amount * 100).toBe(p.amountCents);
  });

  it('reads TOPUP_PACKAGES in euros and keeps cents exact', () => {
    const config = loadConfig({
      TOPUP_PACKAGES: JSON.stringify([
        { id: 'a', amount: 19.99, credits: 150, displayName: 'A', popular: true },
        { id: 'b', amount: 0.1, credits: 1, displayName: 'B' },
      ]),
    });
    expect(findPackage(config, 'a')).toMatchObject({ amountCents: 1999, credits: 150, description: '' });
    expect(findPackage(config, 'b').amountCents).toBe(10);
    expect(() => findPackage(config, 'c')).toThrow('This top-up package does not exist');
  });

  it.each([
    ['not json', 'must be a JSON array'],
    ['[]', 'TOPUP_PACKAGES'],
    [JSON.stringify([{ id: 'a', amount: 5, credits: 10, displayName: 'A' }]), 'exactly one package must be popular'],
    [JSON.stringify([{ id: 'a', amount: 5.001, credits: 10, displayName: 'A', popular: true }]), 'at most 2 decimals'],
    [
      JSON.stringify([
        { id: 'a', amount: 5, credits: 10, displayName: 'A', popular: true },
        { id: 'a', amount: 6, credits: 12, displayName: 'B' },
      ]),
      'unique',
    ],
  ])('refuses TOPUP_PACKAGES=%s', (value, message) => {
    expect(() => loadConfig({ TOPUP_PACKAGES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TOPUP_PACKAGES: value })).toThrow(message);
  });
});

describe('return URLs', () => {
  const publicUrl = 'https://studio.example.com';
  it('keeps same-origin paths and PUBLIC_URL-origin URLs as paths', () => {
    expect(toReturnPath('/dashboard?topup=success', publicUrl)).toBe('/dashboard?topup=success');
    expect(toReturnPath('https://studio.example.com/dashboard?topup=cancelled#x', publicUrl)).toBe(
      '/dashboard?topup=cancelled#x',
    );
  });
  it.each([
    'https://evil.example/dashboard',
    'http://studio.example.com/dashboard',
    'https://studio.example.com.evil.example/',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    'dashboard',
    '/dash\nboard',
  ])('refuses %s', (value) => {
    expect(() => toReturnPath(value, publicUrl)).toThrow('Return URLs must point to this site');
  });
});
