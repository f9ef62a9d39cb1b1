/** What the browser can do about alerts: show them, ask the user first, refused by the user, or not at all. */
export type AlertPermission = NotificationPermission | 'unsupported';

export function alertPermission(): AlertPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

/** Asks the browser (which asks the user, once) to allow alerts; answers what it allows now. */
export async function requestAlertPermission(): Promise<AlertPermission> {
  if (alertPermission() !== 'default') return alertPermission();
  try {
    return await Notification.requestPermission();
  } catch {
    return alertPermission();
  }
}
