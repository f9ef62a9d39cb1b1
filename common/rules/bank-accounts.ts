// IBAN and BIC rules shared by the server (the authority) and the bank account form, so the form refuses
// exactly what the server would, with the same message. Pure: no Node and no DOM imports.
import { getCountrySpecifications, ValidationErrorsIBAN, validateBIC, validateIBAN } from 'ibantools';
import { IBAN_MAX_LENGTH } from '../api/account.constants.ts';
import { MESSAGES } from '../messages.ts';

const m = MESSAGES.account;

/**
 * Why an IBAN is refused: `key` names the message in MESSAGES.account (and so its translation under
 * "messages.account.<key>"), `params` fill its placeholders, `message` is the English text the server sends.
 */
export type IbanError = {
  key: 'ibanRequired' | 'ibanTooLong' | 'ibanFormat' | 'ibanCountry' | 'ibanLength' | 'ibanChecksum';
  params: Record<string, string | number>;
  message: string;
};

/** Electronic format: no spaces, upper case. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

const refuse = (key: IbanError['key'], message: string, params: IbanError['params'] = {}): IbanError => ({
  key,
  params,
  message,
});

/**
 * A real IBAN check (ibantools) of an IBAN already in electronic format: at most 34 characters, known
 * country, the country's length and BBAN format, and the mod-97 check digits. Null when valid, else the
 * most useful reason.
 */
export function ibanError(iban: string): IbanError | null {
  if (iban.length === 0) return refuse('ibanRequired', m.ibanRequired);
  if (iban.length > IBAN_MAX_LENGTH) {
    return refuse('ibanTooLong', m.ibanTooLong(IBAN_MAX_LENGTH), { max: IBAN_MAX_LENGTH });
  }
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return refuse('ibanFormat', m.ibanFormat);
  const result = validateIBAN(iban);
  if (result.valid) return null;
  const country = iban.slice(0, 2);
  const spec = getCountrySpecifications()[country];
  if (result.errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry) || !spec?.chars) {
    return refuse('ibanCountry', m.ibanCountry);
  }
  if (iban.length !== spec.chars) {
    return refuse('ibanLength', m.ibanLength(country, spec.chars), { country, length: spec.chars });
  }
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return refuse('ibanChecksum', m.ibanChecksum);
  return refuse('ibanFormat', m.ibanFormat);
}

/** A BIC/SWIFT code as stored: no spaces, upper case; empty means none. */
export function normalizeBic(value: string): string | null {
  const bic = value.replace(/\s+/g, '').toUpperCase();
  return bic === '' ? null : bic;
}

/** Null when the (normalised) BIC is valid: 8 or 11 letters and digits with a known country. */
export function bicError(bic: string): string | null {
  return validateBIC(bic).valid ? null : m.bicInvalid;
}
