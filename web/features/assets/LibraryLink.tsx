import { ArrowRight, Images } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';

/** Where the media library used to be embedded: a pointer to its own view. */
export function LibraryLink() {
  const { t } = useTranslation();
  return (
    <section
      data-testid="library-link"
      aria-labelledby="library-link-title"
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-center sm:p-5"
    >
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
        <Images className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="library-link-title" className="text-base font-semibold">
          {t('library.movedTitle')}
        </h2>
        <p className="mt-0.5 text-sm text-muted">{t('library.movedBody')}</p>
      </div>
      <Link to="/dashboard?view=library" className={buttonClass('secondary', 'md')}>
        {t('library.open')}
        <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden />
      </Link>
    </section>
  );
}
