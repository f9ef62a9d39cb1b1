import { useTranslation } from 'react-i18next';
import { Section } from '../../ui/Section.tsx';
import { SocialAccounts } from '../publishing/SocialAccounts.tsx';

/** Spec 2.6 Social: connect and disconnect each platform (the connectors of the publishing feature). */
export function SocialTab() {
  const { t } = useTranslation();
  return (
    <div className="space-y-5" data-testid="account-social">
      <h2 className="text-xl font-semibold tracking-tight">{t('account.tabs.social')}</h2>
      <Section title={t('publishing.accounts.title')} description={t('publishing.accounts.hint')}>
        {/* The account dialog is on z-50: the disconnect confirmation goes over it. */}
        <SocialAccounts layerClassName="z-[60]" />
      </Section>
    </div>
  );
}
