import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { ApiError } from '../../api/client.ts';
import { purchaseErrorMessage } from './errors.ts';

describe('purchase error messages', () => {
  beforeAll(async () => {
    await i18next.init({ lng: 'en', resources: {}, interpolation: { escapeValue: false } });
  });

  it("says a site has no payments instead of 'please try again'", () => {
    const off = new ApiError(503, MESSAGES.payments.notConfigured, 'payments_not_configured');
    expect(purchaseErrorMessage(off)).toBe(MESSAGES.payments.notConfigured);
  });

  it('keeps the spec messages for a failed provider and a lost connection', () => {
    expect(purchaseErrorMessage(new ApiError(502, MESSAGES.payments.startFailed, 'payment_provider'))).toBe(
      MESSAGES.payments.startFailed,
    );
    expect(purchaseErrorMessage(new ApiError(0, 'offline', 'NETWORK'))).toBe(MESSAGES.payments.genericError);
    expect(purchaseErrorMessage(new ApiError(400, MESSAGES.payments.unknownPackage))).toBe(
      MESSAGES.payments.unknownPackage,
    );
  });
});
