import { ExternalLink, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';

/** The viewer's own profile links to the profile tab of the account dialog. */
export function EditOwnProfile() {
  const { t } = useTranslation();
  return (
    <Link to="/dashboard?account=profile" className={buttonClass('secondary', 'sm')} data-testid="profile-edit">
      <Pencil className="size-4" aria-hidden />
      {t('profiles.edit')}
    </Link>
  );
}

export function ExternalAnchor({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="inline-flex max-w-full items-center gap-1 break-all text-accent hover:underline focus-visible:outline-2 focus-visible:outline-accent"
    >
      {children}
      <ExternalLink className="size-3.5 shrink-0" aria-hidden />
    </a>
  );
}

/** A figure of the profile's stats row. */
/** A figure, or (`missing`) an honest note in its place when there is none. */
export function Stat({
  label,
  value,
  missing,
  testId,
}: {
  label: string;
  value: string | null;
  missing?: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 rounded-xl border border-line bg-surface-2 px-4 py-3">
      <p className="text-xs text-subtle">{label}</p>
      <p
        className={
          value === null ? 'mt-1 truncate text-sm text-subtle' : 'mt-0.5 truncate text-lg font-semibold text-fg'
        }
        data-testid={testId}
        data-known={value !== null}
      >
        <bdi>{value ?? missing}</bdi>
      </p>
    </div>
  );
}

/** The host of a URL without "www." for link labels. */
export function hostLabel(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    const path = pathname === '/' ? '' : pathname.replace(/\/$/, '');
    return `${hostname.replace(/^www\./, '')}${path}`;
  } catch {
    return url;
  }
}
