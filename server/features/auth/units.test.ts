import { describe, expect, it } from 'vitest';
import { userSchema } from '../../../common/api/auth.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { deviceTypeFromUserAgent, locationLabelFromIp } from '../../platform/auth/sessions.ts';
import { type SubscriptionRow, summarizeSubscription, toUserDto } from './users.ts';

const now = new Date('2030-01-10T00:00:00Z');

const user: UserRow = {
  id: '7d0d3b38-1f7a-4a43-9d59-9b2a4d7b6a11',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  passwordHash: 'scrypt$secret',
  phone: null,
  bio: null,
  location: null,
  website: null,
  timezone: 'UTC',
  role: 'creator',
  userStatus: 'pending',
  creatorType: null,
  isVerified: false,
  credits: 200,
  walletCents: 0,
  earningsCents: 0,
  avatarUrl: '/api/images/a.png',
  lastPasswordChange: now,
  createdAt: now,
  updatedAt: now,
};

const trial = (trialEnd: Date | null, status = 'trialing'): SubscriptionRow => ({
  id: 's1',
  userId: user.id,
  planType: 'trial',
  status,
  trialEnd,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  provider: 'local',
  providerSubscriptionId: null,
  createdAt: now,
  updatedAt: now,
});

describe('toUserDto', () => {
  it('matches the contract and never carries the password hash', () => {
    const dto = toUserDto(user, trial(new Date('2030-01-20T00:00:00Z')), now);
    expect(userSchema.parse(dto)).toEqual(dto);
    expect(JSON.stringify(dto)).not.toContain('scrypt');
    expect(dto).toMatchObject({
      avatar_url: '/api/images/a.png',
      avatarUrl: '/api/images/a.png',
      user_status: 'pending',
    });
  });

  it('summarises the subscription', () => {
    expect(summarizeSubscription(null, now)).toBeNull();
    expect(summarizeSubscription(trial(new Date('2030-01-20T00:00:00Z')), now)?.isActive).toBe(true);
    expect(summarizeSubscription(trial(new Date('2030-01-09T00:00:00Z')), now)?.isActive).toBe(false);
    expect(summarizeSubscription(trial(null, 'active'), now)?.isActive).toBe(true);
    expect(summarizeSubscription(trial(null, 'canceled'), now)?.isActive).toBe(false);
    expect(summarizeSubscription(trial(null, 'something-new'), now)).toMatchObject({
      status: 'incomplete',
      isActive: false,
    });
  });
});

describe('session labels', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/130 Safari/537.36', 'tablet'],
    [undefined, 'desktop'],
  ])('%s → %s', (ua, expected) => {
    expect(deviceTypeFromUserAgent(ua)).toBe(expected);
  });

  it.each([
    ['127.0.0.1', 'Local network'],
    ['::1', 'Local network'],
    ['::ffff:192.168.1.20', 'Local network'],
    ['10.1.2.3', 'Local network'],
    ['172.20.0.5', 'Local network'],
    ['fd12:3456::1', 'Local network'],
    ['172.32.0.1', 'Unknown location'],
    ['203.0.113.9', 'Unknown location'],
    ['2001:db8::1', 'Unknown location'],
    ['garbage', 'Unknown location'],
  ])('%s → %s', (ip, expected) => {
    expect(locationLabelFromIp(ip)).toBe(expected);
  });
});
