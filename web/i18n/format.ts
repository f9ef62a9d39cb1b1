import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../common/messages.ts';
import { storageSize } from '../../common/rules/storage.ts';
import { STUDIO_ACTION_LABELS } from '../../common/rules/studio.ts';
import { translateMessage } from './index.ts';

/** Western digits in both languages, as the credit balance shows them. */
export function useFormatNumber() {
  const { i18n } = useTranslation();
  return (value: number) => new Intl.NumberFormat(i18n.language === 'ar' ? 'ar-u-nu-latn' : 'en').format(value);
}

/** "8 credits" with the language's plural forms. */
export function useCreditsText() {
  const { t } = useTranslation();
  const format = useFormatNumber();
  return (count: number) => t('studio.price.credits', { count, formatted: format(count) });
}

/** The main action's label: Generate + the mode, 'Working...' while loading (spec 2.2). */
export function useActionLabel() {
  const { t } = useTranslation();
  return (action: keyof typeof STUDIO_ACTION_LABELS, loading: boolean) =>
    loading
      ? translateMessage(MESSAGES.generation.working)
      : t(`studio.actions.${action}`, { defaultValue: STUDIO_ACTION_LABELS[action] });
}

/** Western digits in both languages, as the rest of the app shows numbers. */
export const numberLocale = (language: string) => (language === 'ar' ? 'ar-u-nu-latn' : 'en');

/** Euros with two decimals ("€25.00"). */
export function useFormatEuros() {
  const { i18n } = useTranslation();
  return (euros: number) =>
    new Intl.NumberFormat(numberLocale(i18n.language), {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(euros);
}

/** A localized date (and time when asked). */
export function useFormatDate() {
  const { i18n } = useTranslation();
  return (iso: string | null | undefined, withTime = false) => {
    if (!iso) return '—';
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return '—';
    return new Intl.DateTimeFormat(numberLocale(i18n.language), {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
    }).format(date);
  };
}

/** "103.4 MB", "5 GB", in the reader's number format. */
export function useFormatStorage() {
  const { i18n } = useTranslation();
  return (bytes: number) => {
    const { value, unit } = storageSize(bytes);
    return new Intl.NumberFormat(numberLocale(i18n.language), {
      style: 'unit',
      unit,
      maximumFractionDigits: 1,
    }).format(value);
  };
}
