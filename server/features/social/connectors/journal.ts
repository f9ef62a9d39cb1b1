import { randomUUID } from 'node:crypto';
import type { SocialPlatform } from '../../../../common/api/social.ts';
import { ConnectorError, type PostOutcome } from './types.ts';

// The publish journal (issue 28): what a live connector started at a network for one publish and what the network
// answered, kept outside the process (social_publish_journal, social/publish-journal.ts) so that a retried publish
// resumes it (the same container, publish_id, upload session) or answers the recorded outcome, in whichever process
// runs the retry and after a restart. The rule each connector follows: the state a later network call depends on is
// recorded before that call, and the outcome right after the network answers.

/** One publish: the network, the account on it (the author) and our post id. */
export interface PublishKey {
  platform: SocialPlatform;
  accountId: string;
  idempotencyKey: string;
}

/** A connector's resumable state: plain JSON, never a token. */
type JournalState = Record<string, unknown>;

type Claim = { claimed: true; state: JournalState | null } | { claimed: false; heldForMs: number };

export interface PublishJournal {
  /**
   * Takes the publish for `holder` for `leaseMs` and returns its recorded state; another
   * holder's live claim is not taken (`claimed: false` and how long it still runs).
   */
  claim(key: PublishKey, holder: string, leaseMs: number): Promise<Claim>;
  /** Extends `holder`'s claim by `leaseMs`; false when it no longer holds it. */
  renew(key: PublishKey, holder: string, leaseMs: number): Promise<boolean>;
  /** Records the state (null forgets it) while `holder` holds the claim; false when the claim was lost. */
  put(key: PublishKey, holder: string, state: JournalState | null): Promise<boolean>;
  /** Gives the claim up (a holder that died gives it up when its lease runs out). */
  release(key: PublishKey, holder: string): Promise<void>;
}

/**
 * How long a claim outlives its holder's last renewal, and how often a running publish renews it: as the job queue's
 * leases (platform/jobs/lease.ts), so a publish whose process died is free again about when its task is retried.
 */
const CLAIM_LEASE_MS = 30_000;
const CLAIM_RENEW_MS = 5_000;

/** Publishes running in this process, by key: the same post published twice at once shares one publish. */
const running = new Map<string, Promise<PostOutcome>>();

/** What `publish` gets: the recorded state (null: none) and the function that records a new one. */
export interface JournaledPublish<S extends JournalState> {
  recorded: S | null;
  record(state: S | null): Promise<void>;
}

/**
 * Runs one publish under the journal: one attempt at a time across processes (a claim renewed while it runs; a
 * publish claimed elsewhere is a `retry` after the other claim's remaining time), with the recorded state.
 */
export function journaledPublish<S extends JournalState>(
  journal: PublishJournal,
  key: PublishKey,
  publish: (run: JournaledPublish<S>) => Promise<PostOutcome>,
): Promise<PostOutcome> {
  const id = JSON.stringify([key.platform, key.accountId, key.idempotencyKey]);
  const same = running.get(id);
  if (same) return same;
  const attempt = (async () => {
    const holder = randomUUID();
    const claim = await journal.claim(key, holder, CLAIM_LEASE_MS);
    if (!claim.claimed) {
      throw new ConnectorError(
        'retry',
        'this post is being published by another worker',
        Math.max(1, Math.ceil(claim.heldForMs / 1000)),
      );
    }
    const renew = setInterval(() => {
      // A renewal that fails is noticed by the next record (the claim lost).
      journal.renew(key, holder, CLAIM_LEASE_MS).catch(() => undefined);
    }, CLAIM_RENEW_MS);
    renew.unref();
    try {
      return await publish({
        recorded: claim.state as S | null,
        async record(state) {
          if (!(await journal.put(key, holder, state))) {
            throw new ConnectorError('retry', 'another worker took this publish over');
          }
        },
      });
    } finally {
      clearInterval(renew);
      await journal.release(key, holder).catch(() => undefined);
    }
  })().finally(() => running.delete(id));
  running.set(id, attempt);
  return attempt;
}
