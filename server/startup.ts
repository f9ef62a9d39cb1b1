import ipaddr from 'ipaddr.js';
import type { Config } from './config.ts';

/** Whether `host` only listens on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  try {
    return ipaddr.process(host.replace(/^\[|\]$/g, '')).range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * What start-up warns about: doors that are open on purpose but must not be open by accident. `demoAccounts`
 * are the demo accounts present in the database (their passwords are in the README).
 */
export function startupWarnings(config: Config, demoAccounts: readonly string[]): string[] {
  const warnings: string[] = [];
  if (!isLoopbackHost(config.HOST) && demoAccounts.length > 0) {
    warnings.push(
      `HOST=${config.HOST} opens the studio to other machines, and the demo accounts (${demoAccounts.join(', ')}) ` +
        'are reachable with their published passwords. Delete them, or leave HOST unset to listen on 127.0.0.1 only.',
    );
  }
  if (config.production && config.PAYMENTS === 'local') {
    warnings.push(
      'PAYMENTS=local in production: the local checkout completes orders without taking any money. Use it only for a staging site.',
    );
  }
  if (config.production && config.SEED_DEMO) {
    warnings.push(
      'SEED_DEMO=true in production: an empty database gets the demo accounts, whose passwords are published.',
    );
  }
  if (config.production && config.LOCAL_ENGINES) {
    warnings.push(
      'LOCAL_ENGINES=true in production: models without a vendor key are served by the local preview engines ' +
        '(procedural previews, charged at LOCAL_PREVIEW_PRICES). Use it only for a staging or demo site.',
    );
  }
  if (config.production && !config.secureCookies) {
    warnings.push(
      'SECURE_COOKIES=false in production: session cookies are sent without Secure, so they travel unencrypted ' +
        'over plain HTTP. Use it only for a site that is served over plain HTTP on purpose (a closed network).',
    );
  }
  if (config.production && config.SANDBOX_NETWORKS) {
    warnings.push(
      "SANDBOX_NETWORKS=true in production: networks without live credentials connect to the studio's own " +
        'sandbox network, whose "published" posts are pages on this studio. Use it only for a staging or demo site.',
    );
  }
  return warnings;
}
