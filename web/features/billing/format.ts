import { useTranslation } from 'react-i18next';
import { storageSize } from '../../../common/rules/storage.ts';

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
