// Settings › Push notifications ("alerts from this browser"): when a generation, upscale, persona or export the
// page was waiting for finishes while the studio window is not in front (another app or tab), the browser shows
// an alert, if the user turned the setting on and the browser allows this site. Nothing leaves the browser.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserSettings } from '../api/settings.ts';
import { onTaskFinished, type TaskView } from '../api/tasks.ts';
import { translateMessage } from '../i18n/index.ts';
import { alertPermission } from '../ui/alert-permission.ts';

/** The words of a task's alert: its kind's title ("Your video is ready" / "… failed") and the error, if any. */
function alertKey(kind: string): string {
  if (kind.startsWith('sequence.')) return 'master';
  if (kind.startsWith('persona.')) return 'persona';
  if (kind.startsWith('upscale.')) return 'upscale';
  if (kind === 'social.publish') return 'post';
  if (kind.endsWith('video')) return 'video';
  if (kind.endsWith('.audio')) return 'audio';
  if (kind.endsWith('.image')) return 'image';
  return 'task';
}

const userIsAway = () => document.visibilityState === 'hidden' || !document.hasFocus();

export function BrowserAlerts() {
  const { t } = useTranslation();
  const settings = useUserSettings();
  const enabled = settings.data?.pushNotifications ?? false;
  const latest = useRef({ enabled, t });
  latest.current = { enabled, t };

  useEffect(
    () =>
      onTaskFinished((task: TaskView) => {
        const { enabled: on, t: tr } = latest.current;
        if (!on || alertPermission() !== 'granted' || !userIsAway()) return;
        const key = alertKey(task.kind);
        const done = task.status === 'completed';
        const alert = new Notification(tr(`alerts.${done ? 'ready' : 'failed'}.${key}`), {
          body: done || !task.error ? tr('alerts.openStudio') : translateMessage(task.error.message),
          tag: task.id,
          icon: '/favicon.svg',
        });
        alert.onclick = () => {
          window.focus();
          alert.close();
        };
      }),
    [],
  );
  return null;
}
