import { Check } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  NOTIFICATION_FREQUENCIES,
  PROFILE_VISIBILITIES,
  YOUTUBE_PRIVACIES,
} from '../../../common/api/account.constants.ts';
import type { UpdateUserSettingsBody, UserSettings } from '../../../common/api/account.ts';
import { LANGUAGES, THEMES } from '../../../common/api/app.constants.ts';
import { DIGEST_LOCAL_HOUR } from '../../../common/api/notifications.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useUserSettings } from '../../api/settings.ts';
import { translateMessage } from '../../i18n/index.ts';
import { type AlertPermission, alertPermission, requestAlertPermission } from '../../ui/alert-permission.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { SelectField, SwitchField } from '../../ui/controls.tsx';
import { usePreferences } from '../../ui/preferences.ts';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { serverMessage } from '../billing/errors.ts';
import { StripeConnectCard } from '../payouts/StripeConnectCard.tsx';
import { useSaveSettings } from './api.ts';
import { timezoneOptions } from './forms.tsx';

type Toggle =
  | 'emailNotifications'
  | 'pushNotifications'
  | 'marketingEmails'
  | 'weeklyReports'
  | 'autoPublish'
  | 'crossPostOptimization';
const PUBLISHING_TOGGLES: Toggle[] = ['autoPublish', 'crossPostOptimization'];
const DIGEST_HOUR_LABEL = `${String(DIGEST_LOCAL_HOUR).padStart(2, '0')}:00`;

/** Whether this browser will show the alerts the setting asks for, and what to do when it will not. */
function BrowserAlertStatus({ permission, onAllow }: { permission: AlertPermission; onAllow: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg px-3 py-2 text-xs leading-snug',
        permission === 'granted' ? 'bg-surface-2/60 text-muted' : 'bg-warning-soft text-fg',
      )}
      data-testid="push-permission"
      data-state={permission}
      aria-live="polite"
    >
      <span className="min-w-0 flex-1">{t(`account.settings.push.${permission}`)}</span>
      {permission === 'default' && (
        <Button size="sm" variant="secondary" onClick={onAllow} data-testid="push-allow">
          {t('account.settings.push.allow')}
        </Button>
      )}
    </div>
  );
}

/** Spec 3 Settings: every change is saved at once; theme and language also apply at once. */
function SettingsForm({ initial }: { initial: UserSettings }) {
  const { t } = useTranslation();
  const save = useSaveSettings();
  const setTheme = usePreferences((s) => s.setTheme);
  const setLanguage = usePreferences((s) => s.setLanguage);
  const [values, setValues] = useState(initial);
  const [savedAt, setSavedAt] = useState(0);

  useEffect(() => {
    if (!savedAt) return;
    const timer = window.setTimeout(() => setSavedAt(0), 2000);
    return () => window.clearTimeout(timer);
  }, [savedAt]);

  const [permission, setPermission] = useState<AlertPermission>(alertPermission);
  const askForAlerts = async () => setPermission(await requestAlertPermission());

  const change = (patch: UpdateUserSettingsBody) => {
    // Turning browser alerts on asks the browser (once) to allow them.
    if (patch.pushNotifications) void askForAlerts();
    const previous = values;
    setValues((v) => ({ ...v, ...patch }) as UserSettings);
    if (patch.themePreference) setTheme(patch.themePreference);
    if (patch.languagePreference) setLanguage(patch.languagePreference);
    save.mutate(patch, {
      onSuccess: (next) => {
        setValues(next);
        setSavedAt(Date.now());
      },
      onError: (error) => {
        setValues(previous);
        if (patch.themePreference) setTheme(previous.themePreference);
        if (patch.languagePreference) setLanguage(previous.languagePreference);
        toast.error(serverMessage(error, MESSAGES.generic.internal));
      },
    });
  };

  const toggles = (list: Toggle[]) =>
    list.map((key) => (
      <SwitchField
        key={key}
        label={t(`account.settings.fields.${key}`)}
        description={t(`account.settings.hints.${key}`, { hour: DIGEST_HOUR_LABEL })}
        checked={values[key]}
        onChange={(checked) => change({ [key]: checked })}
        testId={`setting-${key}`}
      />
    ));

  return (
    <>
      {/* Sits at the end of the tab title row. */}
      <div aria-live="polite" className="-mt-12 mb-4 flex h-5 justify-end text-sm">
        {savedAt > 0 && (
          <span className="inline-flex items-center gap-1.5 text-success" data-testid="settings-saved">
            <Check className="size-4" aria-hidden />
            {translateMessage(MESSAGES.account.settingsSaved)}
          </span>
        )}
      </div>
      <Section title={t('account.settings.appearance')} testId="settings-appearance">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            variant="form"
            label={t('account.settings.fields.themePreference')}
            value={values.themePreference}
            onChange={(v) => change({ themePreference: v as UserSettings['themePreference'] })}
            options={THEMES.map((v) => ({ value: v, label: t(`settings.themes.${v}`) }))}
            testId="setting-theme"
          />
          <SelectField
            variant="form"
            label={t('account.settings.fields.languagePreference')}
            value={values.languagePreference}
            onChange={(v) => change({ languagePreference: v as UserSettings['languagePreference'] })}
            options={LANGUAGES.map((v) => ({ value: v, label: t(`account.settings.languages.${v}`) }))}
            testId="setting-language"
          />
          <SelectField
            variant="form"
            label={t('account.settings.fields.timezone')}
            value={values.timezone}
            onChange={(v) => change({ timezone: v })}
            options={timezoneOptions(values.timezone).map((z) => ({ value: z, label: z }))}
            testId="setting-timezone"
          />
        </div>
      </Section>
      <Section title={t('account.settings.notifications')} testId="settings-notifications">
        <div className="space-y-2">
          {toggles(['emailNotifications', 'pushNotifications'])}
          {values.pushNotifications && (
            <BrowserAlertStatus permission={permission} onAllow={() => void askForAlerts()} />
          )}
          {toggles(['marketingEmails', 'weeklyReports'])}
          <div className="pt-2 sm:max-w-xs">
            <SelectField
              variant="form"
              label={t('account.settings.fields.notificationFrequency')}
              value={values.notificationFrequency}
              onChange={(v) => change({ notificationFrequency: v as UserSettings['notificationFrequency'] })}
              options={NOTIFICATION_FREQUENCIES.map((v) => ({ value: v, label: t(`account.settings.frequency.${v}`) }))}
              testId="setting-frequency"
              hint={t(`account.settings.frequencyHints.${values.notificationFrequency}`, { hour: DIGEST_HOUR_LABEL })}
            />
          </div>
        </div>
      </Section>
      <Section title={t('account.settings.privacy')} testId="settings-privacy">
        <div className="space-y-4">
          <div className="sm:max-w-xs">
            <SelectField
              variant="form"
              label={t('account.settings.fields.profileVisibility')}
              value={values.profileVisibility}
              onChange={(v) => change({ profileVisibility: v as UserSettings['profileVisibility'] })}
              options={PROFILE_VISIBILITIES.map((v) => ({ value: v, label: t(`account.settings.visibility.${v}`) }))}
              testId="setting-visibility"
            />
          </div>
          <p className="text-sm text-muted" data-testid="setting-two-factor">
            {t('account.settings.fields.twoFactorAuth')}:{' '}
            <span className="font-medium text-fg">
              {values.twoFactorAuth ? t('account.twoFactor.on') : t('account.twoFactor.off')}
            </span>
            {' · '}
            {t('account.settings.twoFactorWhere')}
          </p>
        </div>
      </Section>
      <Section title={t('account.settings.publishing')} testId="settings-publishing">
        <div className="space-y-2">
          {toggles(PUBLISHING_TOGGLES)}
          <div className="pt-2 sm:max-w-xs">
            <SelectField
              variant="form"
              label={t('account.settings.fields.youtubePrivacy')}
              value={values.youtubePrivacy}
              onChange={(v) => change({ youtubePrivacy: v as UserSettings['youtubePrivacy'] })}
              options={YOUTUBE_PRIVACIES.map((v) => ({ value: v, label: t(`account.settings.youtubePrivacy.${v}`) }))}
              testId="setting-youtube-privacy"
              hint={t('account.settings.hints.youtubePrivacy')}
            />
          </div>
        </div>
      </Section>
    </>
  );
}

/** `creator`: the Payouts account card (Stripe Connect onboarding, or the manual mode) is shown too. */
export function SettingsTab({ creator = false }: { creator?: boolean }) {
  const { t } = useTranslation();
  const settings = useUserSettings();
  return (
    <div className="space-y-5" data-testid="account-settings">
      <h2 className="text-xl font-semibold tracking-tight">{t('account.tabs.settings')}</h2>
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <LoadError message={translateMessage(settings.error.message)} onRetry={() => settings.refetch()} />
      ) : (
        <SettingsForm initial={settings.data} />
      )}
      {creator && <StripeConnectCard />}
    </div>
  );
}
