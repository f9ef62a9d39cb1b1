import { Languages, Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, THEMES, type Theme } from '../../common/api/app.constants.ts';
import { cn } from './cn.ts';
import { usePreferences } from './preferences.ts';
import { NativeSelect } from './Select.tsx';

const themeIcons = { dark: Moon, light: Sun, auto: Monitor } as const;

const selectClass = cn(
  'h-9 appearance-none rounded-lg border border-line bg-surface-2 ps-8 pe-7 text-sm text-fg',
  'transition-colors hover:border-line-strong focus:border-accent focus:outline-none focus:ring-3 focus:ring-accent/25',
);

/** Native select with a leading icon and a chevron; keyboard and screen-reader friendly on every device. */
function IconSelect({
  icon: Icon,
  label,
  testId,
  value,
  onChange,
  options,
  className,
}: {
  icon: typeof Moon;
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  className?: string;
}) {
  return (
    <NativeSelect
      aria-label={label}
      title={label}
      testId={testId}
      value={value}
      onChange={onChange}
      options={options}
      className={cn(selectClass, 'w-full')}
      wrapperClassName={cn('inline-flex', className)}
      leading={
        <Icon
          className="pointer-events-none absolute start-2.5 top-1/2 size-4 -translate-y-1/2 text-muted"
          aria-hidden
        />
      }
      chevronClassName="end-2 size-3.5"
    />
  );
}

export function ThemeSelect({ className }: { className?: string }) {
  const { t } = useTranslation();
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);
  return (
    <IconSelect
      icon={themeIcons[theme]}
      label={t('settings.theme')}
      testId="theme-select"
      value={theme}
      onChange={(value) => setTheme(value as Theme)}
      options={THEMES.map((value) => ({ value, label: t(`settings.themes.${value}`) }))}
      className={className}
    />
  );
}

export function LanguageSelect({ className }: { className?: string }) {
  const { t } = useTranslation();
  const language = usePreferences((s) => s.language);
  const setLanguage = usePreferences((s) => s.setLanguage);
  return (
    <IconSelect
      icon={Languages}
      label={t('settings.language')}
      testId="language-select"
      value={language}
      onChange={(value) => setLanguage(value as Language)}
      // Language names are written in their own language so a reader can always find theirs.
      options={LANGUAGES.map((value) => ({ value, label: value === 'ar' ? 'العربية' : 'English' }))}
      className={className}
    />
  );
}

/** Theme and language pickers side by side (home, auth and dashboard headers). */
export function SettingsControl({ className }: { className?: string }) {
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <ThemeSelect />
      <LanguageSelect />
    </div>
  );
}
