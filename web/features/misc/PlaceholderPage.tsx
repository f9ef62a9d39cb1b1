import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicHeader } from '../../ui/PublicHeader.tsx';

type PlaceholderKind = 'creatorProfile' | 'brandProfile' | 'myCampaigns' | 'manageCampaign';

/** Routes that later work fills in: they show their title only. */
export default function PlaceholderPage({ page }: { page: PlaceholderKind }) {
  const { t } = useTranslation();
  const title = t(`placeholders.${page}`);

  useEffect(() => {
    document.title = `${title} · GenPro Studio`;
  }, [title]);

  return (
    <div className="min-h-dvh">
      <PublicHeader />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <Link to="/dashboard" className="inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg">
          <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('nav.dashboard')}
        </Link>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight" data-testid="page-title">
          {title}
        </h1>
      </main>
    </div>
  );
}
