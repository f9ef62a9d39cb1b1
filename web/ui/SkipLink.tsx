import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from './Button.tsx';
import { cn } from './cn.ts';

/**
 * Where the skip link lands: a view may mark the start of its own content inside <main> with this attribute
 * (the studio marks its open tab's panel, past its tab list and tool rail); otherwise <main> itself.
 */
export const SKIP_TARGET = 'data-skip-target';

function skipTarget(): HTMLElement | null {
  const main = document.querySelector('main');
  return main?.querySelector<HTMLElement>(`[${SKIP_TARGET}]`) ?? main;
}

/** 'Skip to main content': the first Tab stop of every page, hidden until it has the focus. */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = skipTarget();
    if (!target) return;
    event.preventDefault();
    // Focusable by script only, so the next Tab goes on from the start of the content.
    if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'nearest' });
  };
  return (
    // biome-ignore lint/a11y/useValidAnchor: in-page navigation; the script picks the view's own target and focuses it
    <a
      href="#main"
      onClick={skip}
      data-testid="skip-link"
      className={cn(
        buttonClass('primary', 'md'),
        // Off screen and transparent (also in full-page screenshots) until it has the focus.
        'fixed start-3 top-3 z-[100] -translate-y-[200%] opacity-0 focus:translate-y-0 focus:opacity-100',
      )}
    >
      {t('common.skipToMain')}
    </a>
  );
}
