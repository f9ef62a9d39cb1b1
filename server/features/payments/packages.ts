import { centsToEuros } from '../../../common/api/money.ts';
import type { TopupPackage } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Config, TopupPackageConfig } from '../../config.ts';
import { badRequest } from '../../platform/errors.ts';

/** The configured top-up packages (TOPUP_PACKAGES or the defaults), amounts in euros. */
export function listPackages(config: Pick<Config, 'TOPUP_PACKAGES'>): TopupPackage[] {
  return config.TOPUP_PACKAGES.map((p) => ({
    id: p.id,
    amount: centsToEuros(p.amountCents),
    amountCents: p.amountCents,
    credits: p.credits,
    displayName: p.displayName,
    description: p.description,
    popular: p.popular,
  }));
}

/** 400 'This top-up package does not exist' for an unknown id. */
export function findPackage(config: Pick<Config, 'TOPUP_PACKAGES'>, id: string): TopupPackageConfig {
  const found = config.TOPUP_PACKAGES.find((p) => p.id === id);
  if (!found) throw badRequest(MESSAGES.payments.unknownPackage);
  return found;
}
