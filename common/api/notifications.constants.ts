// Account and campaign notifications (docs/notifications.md).

/** Daily digests go out at this local hour (the user's time zone); weekly ones on Monday at the same hour. */
export const DIGEST_LOCAL_HOUR = 8;
