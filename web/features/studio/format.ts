import { useTranslation } from 'react-i18next';

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
