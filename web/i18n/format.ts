import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../common/messages.ts';
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
