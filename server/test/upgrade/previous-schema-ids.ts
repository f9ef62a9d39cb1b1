// The fixed ids, users and times of the upgrade fixture (previous-schema-fixture.ts), which the upgrade test
// also reads to sign in and find the rows again.

/** The password of every fixture user (hashed into users.password_hash by the test). */
export const FIXTURE_PASSWORD = 'upgrade-keeps-data';

export const FIXTURE = {
  creator: { id: '10000000-0000-4000-8000-000000000001', email: 'cleo.upgrade@example.com', credits: 120 },
  brand: { id: '10000000-0000-4000-8000-000000000002', email: 'bea.upgrade@example.com' },
  admin: { id: '10000000-0000-4000-8000-000000000003', email: 'ada.upgrade@example.com' },
  /** The creator's session (the token itself; sessions.token_hash holds its sha-256). */
  sessionToken: 'upgrade-fixture-session-token-0123456789abcdef',
  asset: {
    id: '20000000-0000-4000-8000-000000000001',
    key: 'generated/2026/01/20000000-0000-4000-8000-00000000a001.png',
  },
  editorSession: { id: '20000000-0000-4000-8000-000000000002', name: 'Before the upgrade' },
  campaign: { id: '20000000-0000-4000-8000-000000000003', title: 'Spring trail run' },
  creditTransaction: { id: '20000000-0000-4000-8000-000000000004' },
} as const;

export const ID = {
  persona: '30000000-0000-4000-8000-000000000001',
  character: '30000000-0000-4000-8000-000000000002',
  task: '30000000-0000-4000-8000-000000000003',
  upload: '30000000-0000-4000-8000-000000000004',
  bank: '30000000-0000-4000-8000-000000000005',
  payout: '30000000-0000-4000-8000-000000000006',
  stripePayout: '30000000-0000-4000-8000-00000000000c',
  application: '30000000-0000-4000-8000-000000000007',
  collaboration: '30000000-0000-4000-8000-000000000008',
  grant: '30000000-0000-4000-8000-000000000009',
  sandboxPost: '30000000-0000-4000-8000-00000000000a',
  order: '30000000-0000-4000-8000-00000000000b',
  uploadKey: 'upload/2026/01/30000000-0000-4000-8000-00000000b001.png',
};

export interface FixtureRow {
  table: string;
  values: Record<string, unknown>;
}

/** The hashes the caller computes: of FIXTURE_PASSWORD and of FIXTURE.sessionToken. */
export interface FixtureHashes {
  passwordHash: string;
  sessionTokenHash: string;
}

export const T0 = new Date('2026-01-15T10:00:00.000Z');
export const later = (days: number) => new Date(Date.now() + days * 86_400_000);
