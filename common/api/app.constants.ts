// The dashboard shell: views, languages, themes, the credit badge. Named by the spec; server and web import them.

export const CREDIT_BADGE = { lowAtOrBelow: 10, runningLowAtOrBelow: 25 } as const;

export const DASHBOARD_VIEWS = [
  'creators',
  'aiPersonas',
  'genproStudio',
  /** The media library (issue 29): every asset, filtered, searched, sorted, selected and reused. */
  'library',
  'chatWithGenPro',
  'campaignsPool',
  'community',
  'brands',
  'myCampaigns',
  'adminCreators',
  'adminBrands',
  'adminEngines',
  'adminWorkers',
  'adminPayouts',
] as const;

export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

export const DEFAULT_DASHBOARD_VIEW: DashboardView = 'creators';

export const MOBILE_TAB_VIEWS: readonly DashboardView[] = [
  'creators',
  'aiPersonas',
  'brands',
  'community',
  'chatWithGenPro',
];

export const APPROVAL_GATED_VIEWS: readonly DashboardView[] = ['brands', 'campaignsPool', 'myCampaigns'];

export const DASHBOARD_RETURN_FLAGS = ['subscription', 'topup', 'wallet_topup', 'onboarding'] as const;

export const LANGUAGES = ['en', 'ar'] as const;

export type Language = (typeof LANGUAGES)[number];

export const THEMES = ['dark', 'light', 'auto'] as const;

export type Theme = (typeof THEMES)[number];
