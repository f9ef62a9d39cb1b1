import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
import { PASSWORD_MIN_SCORE } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';

// NIST SP 800-63B: at least PASSWORD_MIN_LENGTH characters (the schema checks that), no composition rules,
// and no password that is common, breached or built from the user's own details. zxcvbn-ts estimates the
// guesses a cracker needs with the common-password list (the most frequent passwords of public breaches),
// English words and names, keyboard walks, repeats, sequences, dates and l33t spellings of all of these.

let checker: ZxcvbnFactory | null = null;

/** Built on first use: the dictionaries are large and matching them needs their ranked index. */
function passwordChecker(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
  });
  return checker;
}

/** What a password is built from that an attacker knows about its owner: the email (and its local part) and names. */
export interface PasswordOwner {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

function personalWords(owner: PasswordOwner): string[] {
  const email = owner.email.trim().toLowerCase();
  const local = email.split('@')[0] ?? '';
  const words = [email, local, ...local.split(/[._+-]+/), owner.firstName ?? '', owner.lastName ?? ''];
  return [...new Set(words.map((word) => word.trim().toLowerCase()).filter((word) => word.length >= 3))];
}

type PasswordProblem = 'personal' | 'weak';

/**
 * Why this password must be refused, or null when it may be used. 'personal' when it contains the owner's
 * email, its name part or a name (three characters or more); 'weak' when zxcvbn scores it below PASSWORD_MIN_SCORE.
 */
function passwordProblem(password: string, owner: PasswordOwner): PasswordProblem | null {
  const words = personalWords(owner);
  const lower = password.toLowerCase();
  if (words.some((word) => word.length >= 4 && lower.includes(word))) return 'personal';
  const result = passwordChecker().check(password, words);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const usedPersonal = result.sequence.some(
    (match) => match.pattern === 'dictionary' && 'dictionaryName' in match && match.dictionaryName === 'userInputs',
  );
  return usedPersonal ? 'personal' : 'weak';
}

/** 400 weak_password with the reason, for registration, password change and reset. */
export function assertStrongPassword(password: string, owner: PasswordOwner, field = 'password'): void {
  const problem = passwordProblem(password, owner);
  if (!problem) return;
  const message = problem === 'personal' ? MESSAGES.validation.passwordPersonal : MESSAGES.validation.passwordTooCommon;
  throw new AppError(400, 'weak_password', message, { fieldErrors: { [field]: [message] } });
}
