// Pure dashboard navigation rules (spec 2.1 and 6). No Node and no DOM imports: shared by web and tests.
import {
  APPROVAL_GATED_VIEWS,
  DASHBOARD_VIEWS,
  type DashboardView,
  DEFAULT_DASHBOARD_VIEW,
  MOBILE_TAB_VIEWS,
} from '../../common/api/app.constants.ts';
import type { Role, UserStatus } from '../../common/api/auth.constants.ts';

/** The parts of a user the navigation rules read. `user_status` may hold an unexpected value from old data. */
export interface NavigationSubject {
  role: Role;
  user_status: UserStatus | string | null;
}

export interface SubscriptionSubject extends NavigationSubject {
  subscription: { isActive: boolean } | null;
}

const ADMIN_ONLY_VIEWS: readonly DashboardView[] = [
  'adminCreators',
  'adminBrands',
  'adminEngines',
  'adminWorkers',
  'adminPayouts',
];

const isPendingOrRegular = (status: NavigationSubject['user_status']): boolean =>
  status === 'pending' || status === 'regular_user';

export function isDashboardView(value: unknown): value is DashboardView {
  return typeof value === 'string' && (DASHBOARD_VIEWS as readonly string[]).includes(value);
}

/** A creator whose user_status is anything other than approved_creator. Brands and admins are never "unapproved". */
export function isUnapprovedCreator(user: NavigationSubject): boolean {
  return user.role === 'creator' && user.user_status !== 'approved_creator';
}

/** Whether the view appears in the sidebar, the mobile tab bar or the mobile menu for this user. */
export function isViewVisible(user: NavigationSubject, view: DashboardView): boolean {
  switch (view) {
    case 'myCampaigns':
      // Hidden for creators who are pending or regular_user (brands and admins always see it).
      return !(user.role === 'creator' && isPendingOrRegular(user.user_status));
    case 'campaignsPool':
    case 'brands':
      // Hidden for pending or regular_user users who are neither brand nor admin.
      return !(user.role !== 'brand' && user.role !== 'admin' && isPendingOrRegular(user.user_status));
    case 'adminCreators':
    case 'adminBrands':
    case 'adminEngines':
    case 'adminWorkers':
    case 'adminPayouts':
      return user.role === 'admin';
    default:
      return true;
  }
}

/** Every view the user sees in the navigation, in the spec's order. */
export function visibleViews(user: NavigationSubject): DashboardView[] {
  return DASHBOARD_VIEWS.filter((view) => isViewVisible(user, view));
}

/** Mobile bottom tab bar: the fixed tab views the user may see. */
export function mobileTabViews(user: NavigationSubject): DashboardView[] {
  return MOBILE_TAB_VIEWS.filter((view) => isViewVisible(user, view));
}

/** Mobile full-screen menu: the visible views that are not in the tab bar. */
export function mobileMenuViews(user: NavigationSubject): DashboardView[] {
  return visibleViews(user).filter((view) => !MOBILE_TAB_VIEWS.includes(view));
}

/** Views brands, campaignsPool and myCampaigns show the approval gate to creators who are not approved. */
export function isViewGated(user: NavigationSubject, view: DashboardView): boolean {
  return APPROVAL_GATED_VIEWS.includes(view) && isUnapprovedCreator(user);
}

/**
 * The view to show for a `?view=` value: unknown or missing values fall back to the default, and admin-only
 * views fall back for everyone but admins. Gated views are kept (the page shows the approval gate).
 */
export function resolveDashboardView(user: NavigationSubject, requested: string | null | undefined): DashboardView {
  if (!isDashboardView(requested)) return DEFAULT_DASHBOARD_VIEW;
  if (ADMIN_ONLY_VIEWS.includes(requested) && user.role !== 'admin') return DEFAULT_DASHBOARD_VIEW;
  return requested;
}

export type ApprovalBanner = 'pending' | 'regularUser' | 'unknown';

/** Creator-approval banner: creators only; approved_creator shows nothing. */
export function approvalBanner(user: NavigationSubject): ApprovalBanner | null {
  if (user.role !== 'creator') return null;
  switch (user.user_status) {
    case 'approved_creator':
      return null;
    case 'pending':
      return 'pending';
    case 'regular_user':
      return 'regularUser';
    default:
      return 'unknown';
  }
}

/** The dashboard requires an active subscription for everyone but admins. */
export function needsSubscription(user: SubscriptionSubject): boolean {
  return user.role !== 'admin' && !user.subscription?.isActive;
}
