import {
  BadgeCheck,
  Banknote,
  Building2,
  Cpu,
  FolderKanban,
  Images,
  LayoutGrid,
  type LucideIcon,
  Megaphone,
  MessagesSquare,
  ScanFace,
  Server,
  UserCheck,
  UsersRound,
  WandSparkles,
} from 'lucide-react';
import type { DashboardView } from '../../../common/api/app.constants.ts';

export const VIEW_ICONS: Record<DashboardView, LucideIcon> = {
  creators: LayoutGrid,
  aiPersonas: ScanFace,
  genproStudio: WandSparkles,
  library: Images,
  chatWithGenPro: MessagesSquare,
  campaignsPool: Megaphone,
  community: UsersRound,
  brands: Building2,
  myCampaigns: FolderKanban,
  adminCreators: UserCheck,
  adminBrands: BadgeCheck,
  adminEngines: Cpu,
  adminWorkers: Server,
  adminPayouts: Banknote,
};

/** Sidebar sections, in order. Views a user may not see are filtered out by web/ui/navigation.ts. */
export const NAV_SECTIONS: ReadonlyArray<{ id: 'create' | 'marketplace' | 'admin'; views: readonly DashboardView[] }> =
  [
    { id: 'create', views: ['creators', 'aiPersonas', 'genproStudio', 'library', 'chatWithGenPro'] },
    { id: 'marketplace', views: ['campaignsPool', 'community', 'brands', 'myCampaigns'] },
    { id: 'admin', views: ['adminCreators', 'adminBrands', 'adminEngines', 'adminWorkers', 'adminPayouts'] },
  ];

export function viewHref(view: DashboardView): string {
  return `/dashboard?view=${view}`;
}
