import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import { bicError, ibanError, normalizeBic, normalizeIban } from './bank-accounts.ts';

const m = MESSAGES.account;

describe('IBAN rules', () => {
  it('accepts valid IBANs from several countries', () => {
    for (const iban of [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'ES9121000418450200051332',
      'IT60X0542811101000000123456',
      'BE68539007547034',
      'CH9300762011623852957',
      'NO9386011117947',
      'SA0380000000608010167519',
      'AE070331234567890123456',
      'MT84MALT011000012345MTLCAST001S',
    ]) {
      expect(ibanError(iban), iban).toBeNull();
    }
  });

  it('normalises lower case and spaces to the electronic format before checking', () => {
    const iban = normalizeIban(' de89 3704 0044\t0532 0130 00 ');
    expect(iban).toBe('DE89370400440532013000');
    expect(ibanError(iban)).toBeNull();
    expect(ibanError(normalizeIban('gb82 west 1234 5698 7654 32'))).toBeNull();
  });

  it('refuses a wrong checksum', () => {
    expect(ibanError('DE89370400440532013001')).toEqual({ key: 'ibanChecksum', params: {}, message: m.ibanChecksum });
    expect(ibanError('GB83WEST12345698765432')?.message).toBe(m.ibanChecksum);
  });

  it('refuses a length that does not match the country', () => {
    expect(ibanError('DE8937040044053201300')).toEqual({
      key: 'ibanLength',
      params: { country: 'DE', length: 22 },
      message: m.ibanLength('DE', 22),
    });
    expect(ibanError('NL91ABNA04171643001')?.message).toBe(m.ibanLength('NL', 18));
    expect(ibanError('FR1420041010050500013M0260')?.message).toBe(m.ibanLength('FR', 27));
  });

  it('refuses empty, too long, unknown countries and malformed input with the server messages', () => {
    expect(ibanError('')).toEqual({ key: 'ibanRequired', params: {}, message: m.ibanRequired });
    expect(ibanError(`DE${'1'.repeat(33)}`)).toEqual({
      key: 'ibanTooLong',
      params: { max: 34 },
      message: m.ibanTooLong(34),
    });
    expect(ibanError('XX89370400440532013000')?.message).toBe(m.ibanCountry);
    expect(ibanError('DE89-3704-0044')?.message).toBe(m.ibanFormat);
    expect(ibanError('8937040044053201300022')?.message).toBe(m.ibanFormat);
    // Not normalised: lower case is malformed for the check itself.
    expect(ibanError('de89370400440532013000')?.message).toBe(m.ibanFormat);
  });
});

describe('BIC rules', () => {
  it('normalises spaces and case; empty means no BIC', () => {
    expect(normalizeBic(' cobadeff xxx ')).toBe('COBADEFFXXX');
    expect(normalizeBic('  ')).toBeNull();
  });

  it('accepts 8 or 11 character BICs and refuses the rest', () => {
    expect(bicError('DEUTDEFF')).toBeNull();
    expect(bicError('COBADEFFXXX')).toBeNull();
    expect(bicError('NBEGSARI')).toBeNull();
    for (const bic of ['DEUT', 'DEUTDEFFX', 'DEUTDEFF1234', 'DEUT-EFF', '1234DEFF']) {
      expect(bicError(bic), bic).toBe(m.bicInvalid);
    }
  });
});
