import { createHmac } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { welcomeCreditEmails } from '../../db/schema/index.ts';
import { grantWelcomeCredits } from '../../platform/credits/ledger.ts';
import { serverSecret } from '../../platform/secrets.ts';

export type WelcomeKeyConfig = Pick<Config, 'APP_SECRET' | 'storedSecrets'>;

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, for the once-per-email welcome credits: trimmed and lower-cased; a `+tag`
 * on the local part is dropped for every domain (sub-addressing reaches the same mailbox almost everywhere);
 * for gmail.com and googlemail.com the dots of the local part are dropped and the domain is gmail.com, as Gmail
 * ignores them. Two different mailboxes that meet here (rare) only share one welcome grant.
 */
export function welcomeMailbox(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * HMAC-SHA256 of the normalized mailbox, keyed by a key derived from APP_SECRET: a dump of the table does not
 * let anyone test which addresses once had an account unless it also has the secret. Rotating APP_SECRET
 * starts a new list (the old hashes no longer match).
 */
export function welcomeEmailHash(config: WelcomeKeyConfig, email: string): string {
  const key = createHmac('sha256', serverSecret('APP_SECRET', config)).update('genpro:welcome-credits:v1').digest();
  return createHmac('sha256', key).update(welcomeMailbox(email)).digest('hex');
}

/**
 * The welcome credits for a user who just verified the email through sign-up, once per mailbox ever: the
 * mailbox's hash is inserted (`on conflict do nothing`) and the credits are granted only when this call
 * inserted it, so a deleted account's email, or two verifications racing, get no second grant. Call inside
 * the verifying transaction (a rollback takes the hash back too). Returns whether credits were granted.
 */
export async function grantWelcomeCreditsOncePerEmail(
  tx: DbOrTx,
  config: WelcomeKeyConfig,
  user: { id: string; email: string },
): Promise<boolean> {
  const inserted = await tx
    .insert(welcomeCreditEmails)
    .values({ emailHash: welcomeEmailHash(config, user.email) })
    .onConflictDoNothing()
    .returning({ emailHash: welcomeCreditEmails.emailHash });
  if (inserted.length === 0) return false;
  return (await grantWelcomeCredits(tx, user.id)) !== null;
}
