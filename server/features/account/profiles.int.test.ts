import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_DEFAULTS } from '../../../common/api/account.constants.ts';
import type {
  BrandProfileReply,
  CreatorProfileReply,
  UpdateCreatorProfileBody,
  UpdateUserSettingsBody,
  UserSettingsReply,
} from '../../../common/api/account.ts';
import type { User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let creator: TestUser;
let brand: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  creator = await createTestUser(t.ctx.db, { role: 'creator' });
  brand = await createTestUser(t.ctx.db, { role: 'brand' });
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PATCH' | 'PUT', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });

describe('role checks', () => {
  it('answers 401 without a session and 403 for the wrong role', async () => {
    for (const url of ['/api/creators/profile', '/api/brands/profile', '/api/users/settings']) {
      expect((await call('GET', url)).statusCode).toBe(401);
    }
    expect((await call('PUT', '/api/users/profile', undefined, { bio: 'x' })).statusCode).toBe(401);
    expect((await call('GET', '/api/creators/profile', brand.token)).statusCode).toBe(403);
    expect((await call('PATCH', '/api/creators/profile', admin.token, { bio: 'x' })).statusCode).toBe(403);
    expect((await call('GET', '/api/brands/profile', creator.token)).statusCode).toBe(403);
    const res = await call('PATCH', '/api/brands/profile', creator.token, { industry: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, error: MESSAGES.auth.forbidden });
  });
});

describe('creator profile', () => {
  it('is created on first read from the account and updated field by field', async () => {
    const first = await call('GET', '/api/creators/profile', creator.token);
    expect(first.statusCode).toBe(200);
    expect((first.json() as CreatorProfileReply).data).toMatchObject({
      displayName: 'Test User',
      skills: [],
      niches: [],
      isVerified: false,
      socialLinks: {},
      startingRate: null,
      primaryPlatform: null,
    });

    const body: UpdateCreatorProfileBody = {
      displayName: ' Rita Maker ',
      bio: 'I film food.',
      website: 'https://rita.example',
      primaryPlatform: 'youtube',
      skills: ['editing', 'editing', 'color'],
      niches: ['food'],
      socialLinks: { youtube: 'https://youtube.com/@rita', instagram: '' },
      startingRate: 149.99,
    };
    const res = await call('PATCH', '/api/creators/profile', creator.token, { ...body, isVerified: true });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as CreatorProfileReply).data;
    expect(data).toMatchObject({
      displayName: 'Rita Maker',
      bio: 'I film food.',
      website: 'https://rita.example',
      primaryPlatform: 'youtube',
      skills: ['editing', 'color'],
      niches: ['food'],
      socialLinks: { youtube: 'https://youtube.com/@rita' },
      startingRate: 149.99,
      isVerified: false,
    });

    const partial = await call('PATCH', '/api/creators/profile', creator.token, { bio: '' });
    expect((partial.json() as CreatorProfileReply).data).toMatchObject({ bio: null, displayName: 'Rita Maker' });
  });

  it('refuses URLs that are not http or https', async () => {
    for (const website of ['javascript:alert(1)', 'ftp://files.example', 'not a url']) {
      const res = await call('PATCH', '/api/creators/profile', creator.token, { website });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: MESSAGES.account.urlInvalid });
    }
    const social = await call('PATCH', '/api/creators/profile', creator.token, {
      socialLinks: { tiktok: 'data:text/html,hi' },
    });
    expect(social.statusCode).toBe(400);
  });
});

describe('brand profile', () => {
  it('starts pending, keeps verificationStatus read-only and validates the website', async () => {
    const first = await call('GET', '/api/brands/profile', brand.token);
    expect(first.statusCode).toBe(200);
    expect((first.json() as BrandProfileReply).data).toMatchObject({
      verificationStatus: 'pending',
      companyName: null,
    });

    const res = await call('PATCH', '/api/brands/profile', brand.token, {
      companyName: 'Acme',
      industry: 'Food',
      companyWebsite: 'https://acme.example',
      companyDescription: 'Snacks',
      targetAudience: 'Students',
      marketingObjectives: 'Awareness',
      budgetRange: '$1K - $5K',
      companySize: '11-50',
      headquartersLocation: 'Berlin',
      verificationStatus: 'verified',
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as BrandProfileReply).data).toMatchObject({
      companyName: 'Acme',
      headquartersLocation: 'Berlin',
      verificationStatus: 'pending',
    });
    const bad = await call('PATCH', '/api/brands/profile', brand.token, { companyWebsite: 'javascript:x' });
    expect(bad.statusCode).toBe(400);
    const badLogo = await call('PATCH', '/api/brands/profile', brand.token, { logoUrl: 'javascript:x' });
    expect(badLogo.json()).toMatchObject({ error: MESSAGES.account.logoOwnMediaOnly });
  });
});

describe('PUT /api/users/profile', () => {
  it('updates the generic fields and validates the time zone with Intl', async () => {
    const res = await call('PUT', '/api/users/profile', admin.token, {
      first_name: 'Ada',
      last_name: 'Admin',
      phone: '+49 30 1234567',
      bio: 'Runs things',
      location: 'Paris',
      website: 'http://ada.example',
      timezone: 'Europe/Paris',
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: User }).data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Admin',
      phone: '+49 30 1234567',
      timezone: 'Europe/Paris',
    });
    const badZone = await call('PUT', '/api/users/profile', admin.token, { timezone: 'Mars/Olympus' });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json()).toMatchObject({ error: MESSAGES.account.timezoneInvalid });
    const badPhone = await call('PUT', '/api/users/profile', admin.token, { phone: 'call me maybe' });
    expect(badPhone.json()).toMatchObject({ error: MESSAGES.account.phoneInvalid });
    const cleared = await call('PUT', '/api/users/profile', admin.token, { phone: '', website: '' });
    expect((cleared.json() as { data: User }).data).toMatchObject({ phone: null, website: null, first_name: 'Ada' });
    const emptyName = await call('PUT', '/api/users/profile', admin.token, { first_name: '  ' });
    expect(emptyName.json()).toMatchObject({ error: MESSAGES.validation.firstNameRequired });
  });
});

describe('settings', () => {
  it('answers the spec defaults before anything is saved, then saves any subset', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const first = await call('GET', '/api/users/settings', user.token);
    expect(first.statusCode).toBe(200);
    expect((first.json() as UserSettingsReply).data).toEqual({
      ...SETTINGS_DEFAULTS,
      twoFactorAuth: false,
      timezone: 'UTC',
    });
    expect((first.json() as UserSettingsReply).data).toMatchObject({
      profileVisibility: 'public',
      languagePreference: 'en',
      themePreference: 'dark',
      notificationFrequency: 'instant',
    });

    const body: UpdateUserSettingsBody = {
      themePreference: 'light',
      languagePreference: 'ar',
      profileVisibility: 'connections',
      marketingEmails: true,
      timezone: 'Asia/Tokyo',
    };
    const saved = await call('PUT', '/api/users/settings', user.token, { ...body, twoFactorAuth: true });
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as UserSettingsReply).data).toMatchObject({
      ...body,
      twoFactorAuth: false,
      weeklyReports: true,
    });

    const again = await call('PUT', '/api/users/settings', user.token, { autoPublish: true });
    expect((again.json() as UserSettingsReply).data).toMatchObject({ themePreference: 'light', autoPublish: true });
    const me = await call('GET', '/api/auth/me', user.token);
    expect(me.json().data.user.timezone).toBe('Asia/Tokyo');

    expect((await call('PUT', '/api/users/settings', user.token, { themePreference: 'neon' })).statusCode).toBe(400);
    const zone = await call('PUT', '/api/users/settings', user.token, { timezone: 'Nowhere/City' });
    expect(zone.json()).toMatchObject({ error: MESSAGES.account.timezoneInvalid });
  });
});
