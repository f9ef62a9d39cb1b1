import { BlockList, isIP } from 'node:net';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { type DeviceType, SESSION_TTL_DAYS } from '../../../common/api/auth.constants.ts';
import type { SessionInfo } from '../../../common/api/auth.ts';
import type { DbOrTx } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { generateToken, sha256 } from './crypto.ts';

/** Where a request came from, as recorded on its session. */
export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
}

const USER_AGENT_MAX = 512;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function deviceTypeFromUserAgent(userAgent: string | undefined): DeviceType {
  const ua = userAgent ?? '';
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Nexus (7|9|10)\b|SM-T\d|Android(?!.*Mobile)/i.test(ua)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|BB10|Opera Mini|IEMobile/i.test(ua)) return 'mobile';
  return 'desktop';
}

const localRanges = new BlockList();
localRanges.addSubnet('127.0.0.0', 8, 'ipv4');
localRanges.addSubnet('10.0.0.0', 8, 'ipv4');
localRanges.addSubnet('172.16.0.0', 12, 'ipv4');
localRanges.addSubnet('192.168.0.0', 16, 'ipv4');
localRanges.addSubnet('169.254.0.0', 16, 'ipv4');
localRanges.addSubnet('100.64.0.0', 10, 'ipv4');
localRanges.addAddress('::1', 'ipv6');
localRanges.addSubnet('fc00::', 7, 'ipv6');
localRanges.addSubnet('fe80::', 10, 'ipv6');

/** 'Local network' for loopback and private addresses; there is no geo database, so others are unknown. */
export function locationLabelFromIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  const family = isIP(address);
  if (family === 0) return 'Unknown location';
  return localRanges.check(address, family === 4 ? 'ipv4' : 'ipv6') ? 'Local network' : 'Unknown location';
}

/** A new session row; the random token is returned once and only its SHA-256 is stored. */
export async function createSession(
  db: DbOrTx,
  now: Date,
  userId: string,
  meta: RequestMeta,
): Promise<{ token: string; sessionId: string }> {
  const token = generateToken();
  const [row] = await db
    .insert(sessions)
    .values({
      userId,
      tokenHash: sha256(token),
      deviceType: deviceTypeFromUserAgent(meta.userAgent),
      userAgent: meta.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: meta.ip,
      location: locationLabelFromIp(meta.ip),
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_DAYS * 86_400_000),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: sessions.id });
  return { token, sessionId: row.id };
}

const active = (userId: string, now: Date) =>
  and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/** The account's active sessions, most recently seen first. */
export async function listSessions(
  db: DbOrTx,
  now: Date,
  userId: string,
  currentSessionId: string | null,
): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(active(userId, now))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((s) => ({
    id: s.id,
    location: s.location,
    deviceType: toDeviceType(s.deviceType),
    timestamp: s.lastSeenAt.toISOString(),
    isActive: true,
    current: s.id === currentSessionId,
    userAgent: s.userAgent,
    createdAt: s.createdAt.toISOString(),
  }));
}

function toDeviceType(value: string): DeviceType {
  return value === 'mobile' || value === 'tablet' ? value : 'desktop';
}

/** Revokes one of the user's active sessions; false when it is not theirs, unknown or already ended. */
export async function revokeSession(db: DbOrTx, now: Date, userId: string, sessionId: string): Promise<boolean> {
  if (!UUID.test(sessionId)) return false;
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(sessions.id, sessionId), active(userId, now)))
    .returning({ id: sessions.id });
  return revoked.length > 0;
}

/** Revokes every active session of the user (the current one included); returns how many. */
export async function revokeAllSessions(db: DbOrTx, now: Date, userId: string): Promise<number> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(active(userId, now))
    .returning({ id: sessions.id });
  return revoked.length;
}

/** Revokes every active session of the user except `keepSessionId`; returns how many. */
export async function revokeOtherSessions(
  db: DbOrTx,
  now: Date,
  userId: string,
  keepSessionId: string,
): Promise<number> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(active(userId, now), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return revoked.length;
}

/**
 * True when the user has had a session (active, revoked or expired) from the same device type and
 * user agent as this request: a log-in from anything else counts as a new device.
 */
export async function isKnownDevice(db: DbOrTx, userId: string, meta: RequestMeta): Promise<boolean> {
  const userAgent = meta.userAgent?.slice(0, USER_AGENT_MAX) ?? null;
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.deviceType, deviceTypeFromUserAgent(meta.userAgent)),
        userAgent === null ? isNull(sessions.userAgent) : eq(sessions.userAgent, userAgent),
      ),
    )
    .limit(1);
  return row !== undefined;
}
