import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where createTestApp and the browser-test studio write their logs during `npm test`. */
export const TEST_LOG_DIR = path.resolve('.tmp', 'test-logs');

/** Fake vendor keys and secrets the tests configure; none may ever be logged. */
const KNOWN_TEST_SECRETS = [
  'sk_test_genpro',
  'whsec_test_secret',
  'whsec_other',
  'r8_test_token',
  'ark-int-key',
  'rw-int-key',
  'gemini-key',
  'app-secret-for-the-secrets-test-0123456789',
  'media-url-secret-for-the-secrets-test-0123',
];

const NOT_REDACTED = '(?!\\[Redacted\\])';

/** What a secret looks like in a JSON log line (pino), named for the report. */
const SECRET_PATTERNS: { name: string; pattern: RegExp }[] = [
  { name: 'Stripe secret key', pattern: /\b[sr]k_(test|live)_[A-Za-z0-9]{6,}/ },
  { name: 'Stripe webhook secret', pattern: /\bwhsec_[A-Za-z0-9]{6,}/ },
  { name: 'Replicate token', pattern: /\br8_[A-Za-z0-9]{8,}/ },
  { name: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/ },
  { name: 'OpenAI-style key', pattern: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { name: 'bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/i },
  {
    name: 'authorization header',
    pattern: new RegExp(`"(authorization|proxy-authorization|x-api-key)"\\s*:\\s*"${NOT_REDACTED}[^"]+"`, 'i'),
  },
  { name: 'cookie header', pattern: new RegExp(`"(set-)?cookie"\\s*:\\s*"${NOT_REDACTED}[^"]+"`, 'i') },
  { name: 'session cookie', pattern: /genpro_session=[A-Za-z0-9_-]{16,}/ },
  { name: 'password value', pattern: new RegExp(`"[A-Za-z_]*password"\\s*:\\s*"${NOT_REDACTED}[^"]+"`, 'i') },
  { name: 'TOTP secret', pattern: /[?&]secret=[A-Z2-7]{16,}|"(totp_?)?secret"\s*:\s*"[A-Z2-7]{16,}"/i },
  {
    name: 'access/refresh token',
    pattern: new RegExp(`"(access|refresh|id|session|challenge)_?token"\\s*:\\s*"${NOT_REDACTED}[^"]{8,}"`, 'i'),
  },
  {
    name: 'credential in a URL',
    pattern:
      /[?&](access_token|refresh_token|id_token|token|api_key|apikey|key|code|sig|signature)=[A-Za-z0-9._~%-]{16,}/i,
  },
  {
    name: 'API key value',
    pattern: new RegExp(`"(api_?key|secret_?key|client_?secret)"\\s*:\\s*"${NOT_REDACTED}[^"]+"`, 'i'),
  },
];

export interface SecretFinding {
  file: string;
  line: number;
  name: string;
  excerpt: string;
}

/** The secrets found in one log line (by pattern name), with `extraSecrets` matched literally. */
export function secretsInLine(line: string, extraSecrets: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const secret of [...KNOWN_TEST_SECRETS, ...extraSecrets]) {
    if (line.includes(secret)) found.push(`known test secret ${JSON.stringify(secret)}`);
  }
  for (const { name, pattern } of SECRET_PATTERNS) if (pattern.test(line)) found.push(name);
  return found;
}

/** Every finding in the `.log` files of a folder. Throws when there is no log file at all. */
export function scanLogDir(dir: string = TEST_LOG_DIR): { files: number; lines: number; findings: SecretFinding[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.log'));
  } catch {
    names = [];
  }
  if (names.length === 0) throw new Error(`no log files in ${dir}: the tests wrote no logs, nothing was checked`);
  const findings: SecretFinding[] = [];
  let lines = 0;
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const text = readFileSync(file, 'utf8');
    for (const [i, line] of text.split('\n').entries()) {
      if (!line) continue;
      lines++;
      for (const secret of secretsInLine(line)) {
        findings.push({
          file,
          line: i + 1,
          name: secret,
          excerpt: line.length > 300 ? `${line.slice(0, 300)}…` : line,
        });
      }
    }
  }
  if (lines === 0) throw new Error(`the log files in ${dir} are empty: nothing was checked`);
  return { files: names.length, lines, findings };
}
