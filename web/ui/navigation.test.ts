import { describe, expect, it } from 'vitest';
import { DASHBOARD_VIEWS, type DashboardView, MOBILE_TAB_VIEWS } from '../../common/api/app.constants.ts';
import { ROLES, USER_STATUSES } from '../../common/api/auth.constants.ts';
import {
  approvalBanner,
  isDashboardView,
  isUnapprovedCreator,
  isViewGated,
  isViewVisible,
  mobileMenuViews,
  mobileTabViews,
  type NavigationSubject,
  needsSubscription,
  resolveDashboardView,
  visibleViews,
} from './navigation.ts';

const STATUSES = [...USER_STATUSES, null, 'something_else'] as const;
const ALL_VIEWS: DashboardView[] = [...DASHBOARD_VIEWS];
const withoutViews = (...hidden: DashboardView[]) => ALL_VIEWS.filter((v) => !hidden.includes(v));

/** Expected visible views for every role × status combination, written out from spec 2.1 and 6. */
const EXPECTED_VISIBLE: Record<(typeof ROLES)[number], Record<string, DashboardView[]>> = {
  creator: {
    pending: withoutViews(
      'campaignsPool',
      'brands',
      'myCampaigns',
      'adminCreators',
      'adminBrands',
      'adminEngines',
      'adminWorkers',
      'adminPayouts',
    ),
    approved_creator: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    regular_user: withoutViews(
      'campaignsPool',
      'brands',
      'myCampaigns',
      'adminCreators',
      'adminBrands',
      'adminEngines',
      'adminWorkers',
      'adminPayouts',
    ),
    null: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    something_else: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
  },
  brand: {
    pending: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    approved_creator: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    regular_user: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    null: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
    something_else: withoutViews('adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'),
  },
  admin: {
    pending: ALL_VIEWS,
    approved_creator: ALL_VIEWS,
    regular_user: ALL_VIEWS,
    null: ALL_VIEWS,
    something_else: ALL_VIEWS,
  },
};

const EXPECTED_BANNER: Record<string, ReturnType<typeof approvalBanner>> = {
  pending: 'pending',
  approved_creator: null,
  regular_user: 'regularUser',
  null: 'unknown',
  something_else: 'unknown',
};

const combos: Array<{ role: (typeof ROLES)[number]; status: (typeof STATUSES)[number] }> = ROLES.flatMap((role) =>
  STATUSES.map((status) => ({ role, status })),
);

describe.each(combos)('role $role with user_status $status', ({ role, status }) => {
  const user: NavigationSubject = { role, user_status: status };
  const key = String(status);

  it('sees exactly the expected views', () => {
    expect(visibleViews(user)).toEqual(EXPECTED_VISIBLE[role][key]);
    for (const view of DASHBOARD_VIEWS) {
      expect(isViewVisible(user, view)).toBe(EXPECTED_VISIBLE[role][key].includes(view));
    }
  });

  it('always sees the views open to everyone', () => {
    for (const view of ['creators', 'aiPersonas', 'genproStudio', 'chatWithGenPro', 'community'] as const) {
      expect(isViewVisible(user, view)).toBe(true);
    }
  });

  it('splits visible views between the mobile tab bar and the mobile menu', () => {
    const tabs = mobileTabViews(user);
    const menu = mobileMenuViews(user);
    expect(tabs.every((v) => MOBILE_TAB_VIEWS.includes(v))).toBe(true);
    expect(menu.some((v) => MOBILE_TAB_VIEWS.includes(v))).toBe(false);
    expect([...tabs, ...menu].sort()).toEqual([...visibleViews(user)].sort());
    expect(tabs).toContain('chatWithGenPro');
  });

  it('gates brands, campaignsPool and myCampaigns only for creators who are not approved', () => {
    const unapprovedCreator = role === 'creator' && status !== 'approved_creator';
    expect(isUnapprovedCreator(user)).toBe(unapprovedCreator);
    for (const view of DASHBOARD_VIEWS) {
      const gatedView = view === 'brands' || view === 'campaignsPool' || view === 'myCampaigns';
      expect(isViewGated(user, view)).toBe(gatedView && unapprovedCreator);
    }
  });

  it('shows the creator-approval banner for creators only', () => {
    expect(approvalBanner(user)).toBe(role === 'creator' ? EXPECTED_BANNER[key] : null);
  });

  it('resolves the ?view= value', () => {
    expect(resolveDashboardView(user, null)).toBe('creators');
    expect(resolveDashboardView(user, undefined)).toBe('creators');
    expect(resolveDashboardView(user, '')).toBe('creators');
    expect(resolveDashboardView(user, 'nope')).toBe('creators');
    expect(resolveDashboardView(user, 'aiPersonas')).toBe('aiPersonas');
    // Gated views resolve to themselves so the page can show the gate.
    expect(resolveDashboardView(user, 'brands')).toBe('brands');
    expect(resolveDashboardView(user, 'myCampaigns')).toBe('myCampaigns');
    expect(resolveDashboardView(user, 'adminCreators')).toBe(role === 'admin' ? 'adminCreators' : 'creators');
    expect(resolveDashboardView(user, 'adminBrands')).toBe(role === 'admin' ? 'adminBrands' : 'creators');
  });

  it('requires an active subscription except for admins', () => {
    const active = { isActive: true };
    const inactive = { isActive: false };
    expect(needsSubscription({ ...user, subscription: active })).toBe(false);
    expect(needsSubscription({ ...user, subscription: inactive })).toBe(role !== 'admin');
    expect(needsSubscription({ ...user, subscription: null })).toBe(role !== 'admin');
  });
});

describe('isDashboardView', () => {
  it('accepts every view id and nothing else', () => {
    for (const view of DASHBOARD_VIEWS) expect(isDashboardView(view)).toBe(true);
    for (const value of ['', 'Creators', 'chatWith{product}', 'admin', null, undefined, 3]) {
      expect(isDashboardView(value)).toBe(false);
    }
  });
});
