// Rows for every table of the PREVIOUS schema version (every migration but the last), written in raw SQL against
// that schema, in foreign-key order. The upgrade test (upgrade.int.test.ts) fails when a table of the previous
// schema has no row here: when a release adds a table, the release after it adds that table's row to this list.

import { FIXTURE, type FixtureHashes, type FixtureRow, ID, later, T0 } from './previous-schema-ids.ts';

/** Every row, parents first. `passwordHash` and `sessionTokenHash` are computed by the caller. */
export function previousSchemaRows(hashes: FixtureHashes): FixtureRow[] {
  return [
    ...accountRows(hashes),
    ...billingRows(),
    ...mediaRows(),
    ...platformRows(),
    ...studioRows(),
    ...profileAndPayoutRows(),
    ...campaignRows(),
    ...socialRows(),
    ...notificationAndAdminRows(),
  ];
}

/** The users and their sign-in: settings, two-factor, codes, a pending sign-up, sessions. */
function accountRows(hashes: FixtureHashes): FixtureRow[] {
  const { creator, brand, admin } = FIXTURE;
  const user = (id: string, email: string, role: string, extra: Record<string, unknown> = {}) => ({
    table: 'users',
    values: {
      id,
      first_name: role === 'brand' ? 'Bea' : role === 'admin' ? 'Ada' : 'Cleo',
      last_name: 'Upgrade',
      email,
      password_hash: hashes.passwordHash,
      role,
      is_verified: true,
      timezone: 'Europe/Stockholm',
      created_at: T0,
      ...extra,
    },
  });
  return [
    user(creator.id, creator.email, 'creator', {
      user_status: 'approved_creator',
      creator_type: 'content_creator',
      credits: creator.credits,
      earnings_cents: 4500,
      bio: 'Trail runner and filmmaker',
    }),
    user(brand.id, brand.email, 'brand', { wallet_cents: 30_000 }),
    user(admin.id, admin.email, 'admin'),
    {
      table: 'user_settings',
      values: { user_id: creator.id, theme_preference: 'light', weekly_reports: false, youtube_privacy: 'unlisted' },
    },
    { table: 'user_two_factor', values: { user_id: brand.id, secret_encrypted: 'v1.sealed-secret', enabled_at: null } },
    {
      table: 'two_factor_challenges',
      values: {
        user_id: brand.id,
        token_hash: 'challenge-hash-1',
        expires_at: T0,
        consumed_at: T0,
        email_code_hash: 'email-code-hash-1',
      },
    },
    {
      table: 'password_reset_codes',
      values: { user_id: creator.id, code_hash: 'reset-code-hash-1', expires_at: T0, wrong_tries: 1, consumed_at: T0 },
    },
    {
      // A sign-up waiting for its mailed code when the studio was upgraded.
      table: 'pending_registrations',
      values: {
        email: 'pia.pending@example.com',
        first_name: 'Pia',
        last_name: 'Pending',
        password_hash: hashes.passwordHash,
        role: 'creator',
        code_hash: 'pending-code-hash-1',
        expires_at: later(1),
        wrong_tries: 0,
      },
    },
    { table: 'welcome_credit_emails', values: { email_hash: 'welcome-hash-of-a-deleted-account' } },
    {
      table: 'sessions',
      values: {
        user_id: creator.id,
        token_hash: hashes.sessionTokenHash,
        device_type: 'desktop',
        user_agent: 'upgrade-test',
        ip: '127.0.0.1',
        location: 'Stockholm',
        expires_at: later(30),
      },
    },
    {
      table: 'email_verification_codes',
      values: { user_id: creator.id, code_hash: 'code-hash-1', expires_at: T0, consumed_at: T0 },
    },
    { table: 'auth_attempts', values: { kind: 'login', subject: creator.email, created_at: T0 } },
  ];
}

/** Subscriptions, a paid order and its event, and the credit and money ledgers. */
function billingRows(): FixtureRow[] {
  const { creator, brand } = FIXTURE;
  return [
    {
      table: 'subscriptions',
      values: { user_id: creator.id, plan_type: 'trial', status: 'trialing', trial_end: later(7) },
    },
    {
      table: 'subscriptions',
      values: {
        user_id: brand.id,
        plan_type: 'pro',
        status: 'active',
        current_period_end: later(20),
        provider: 'local',
      },
    },
    {
      table: 'payment_orders',
      values: {
        id: ID.order,
        user_id: creator.id,
        kind: 'topup',
        provider: 'local',
        status: 'completed',
        amount_cents: 1000,
        package_id: 'starter',
        credits: 100,
        success_url: '/dashboard?topup=success',
        cancel_url: '/dashboard?topup=cancelled',
        fulfilled_at: T0,
      },
    },
    { table: 'payment_events', values: { id: 'evt_upgrade_1', type: 'checkout.session.completed' } },
    {
      table: 'credit_transactions',
      values: {
        id: FIXTURE.creditTransaction.id,
        user_id: creator.id,
        type: 'addition',
        amount: creator.credits,
        balance_after: creator.credits,
        source: 'purchase',
        description: 'Credit top-up: Starter',
        created_at: T0,
      },
    },
    {
      table: 'money_transactions',
      values: {
        user_id: brand.id,
        account: 'wallet',
        type: 'credit',
        amount_cents: 30_000,
        balance_after_cents: 30_000,
        source: 'topup',
        reference_id: ID.order,
        description: 'Wallet top-up',
      },
    },
  ];
}

/** The media library: a stored object, the asset made from it, and an upload. */
function mediaRows(): FixtureRow[] {
  const { creator, asset } = FIXTURE;
  return [
    {
      table: 'media_objects',
      values: {
        key: asset.key,
        user_id: creator.id,
        content_type: 'image/png',
        size: 9,
        storage_class: 'generated',
        tags: { Classification: 'generated', UserId: creator.id },
        created_at: T0,
      },
    },
    {
      table: 'assets',
      values: {
        id: asset.id,
        user_id: creator.id,
        type: 'image',
        key: asset.key,
        url: `/api/images/${asset.key}`,
        prompt: 'a lighthouse on a cliff at sunset',
        metadata: { engine: 'local', width: 4, height: 2 },
        status: 'completed',
        service: 'image',
        model: 'seedream4',
        credits_used: 2,
        task_id: ID.task,
        created_at: T0,
      },
    },
    {
      table: 'uploaded_media',
      values: {
        id: ID.upload,
        user_id: creator.id,
        filename: 'photo.png',
        key: ID.uploadKey,
        type: 'image',
        mime_type: 'image/png',
        size: 1234,
        status: 'ready',
        width: 64,
        height: 48,
      },
    },
  ];
}

/** The task queue and its worker, engine calls, rate limits and server secrets. */
function platformRows(): FixtureRow[] {
  const { creator, asset } = FIXTURE;
  return [
    {
      table: 'tasks',
      values: {
        id: ID.task,
        user_id: creator.id,
        kind: 'image.generate',
        status: 'completed',
        progress: 100,
        input: { prompt: 'a lighthouse on a cliff at sunset' },
        result: { assetIds: [asset.id] },
        credits_reserved: 2,
        attempts: 1,
        started_at: T0,
        finished_at: T0,
        worker_id: 'worker-upgrade-1',
        request_id: 'req-upgrade-1',
      },
    },
    {
      table: 'worker_heartbeats',
      values: {
        id: 'worker-upgrade-1',
        role: 'worker',
        hostname: 'upgrade-host',
        pid: 4242,
        started_at: T0,
        last_beat_at: T0,
        running: 0,
        stopping: false,
        last_task_id: ID.task,
        last_task_kind: 'image.generate',
        last_task_at: T0,
        details: { concurrency: 2 },
      },
    },
    { table: 'engine_calls', values: { kind: 'image', engine: 'local', outcome: 'ok', message: null, at: T0 } },
    { table: 'rate_limits', values: { key: 'auth:203.0.113.7', points: 3, expire: T0.getTime() + 60_000 } },
    {
      // A deployment's generated media-link secret: the upgraded studio keeps signing with it.
      table: 'server_secrets',
      values: {
        name: 'media-url-secret',
        value: 'upgrade-fixture-media-url-secret-kept-across-the-upgrade-0123456789',
      },
    },
  ];
}

/** The studio's saved work: an editor session, a character, a persona and a workspace item. */
function studioRows(): FixtureRow[] {
  const { creator, asset, editorSession } = FIXTURE;
  return [
    {
      table: 'editor_sessions',
      values: {
        id: editorSession.id,
        user_id: creator.id,
        name: editorSession.name,
        component_type: 'multi-reference',
        data: { referenceImages: [{ id: 'r1', url: `/api/images/${asset.key}`, weight: 60 }], prompt: 'blend' },
        size_bytes: 120,
        created_at: T0,
        updated_at: T0,
      },
    },
    { table: 'characters', values: { id: ID.character, user_id: creator.id, name: 'Mara', images: ['/m/mara.png'] } },
    {
      table: 'personas',
      values: {
        id: ID.persona,
        user_id: creator.id,
        name: 'Nova',
        description: 'A cheerful fitness coach',
        personality: 'friendly',
        language: 'en',
        images: { front: null },
        status: 'ready',
        generation_progress: 100,
      },
    },
    {
      table: 'campaign_workspace_items',
      values: { user_id: creator.id, asset_type: 'persona', persona_id: ID.persona, asset_id: asset.id },
    },
  ];
}

/** Brand and creator profiles, the Stripe account, a bank account and payouts. */
function profileAndPayoutRows(): FixtureRow[] {
  const { creator, brand, admin } = FIXTURE;
  return [
    {
      table: 'brand_profiles',
      values: { user_id: brand.id, company_name: 'Trailworks', verification_status: 'verified' },
    },
    {
      table: 'creator_profiles',
      values: { user_id: creator.id, display_name: 'Cleo Runs', niches: ['fitness'], starting_rate_cents: 15_000 },
    },
    {
      // Its status as Stripe last reported it: charges on, payouts held for a past-due requirement.
      table: 'creator_stripe_accounts',
      values: {
        user_id: creator.id,
        stripe_account_id: 'acct_upgrade',
        charges_enabled: true,
        payouts_enabled: false,
        details_submitted: true,
        requirements_due: ['external_account'],
        disabled_reason: 'requirements.past_due',
        status_synced_at: T0,
      },
    },
    {
      table: 'bank_accounts',
      values: {
        id: ID.bank,
        user_id: creator.id,
        account_holder_name: 'Cleo Upgrade',
        iban: 'SE4550000000058398257466',
        is_primary: true,
      },
    },
    {
      table: 'payouts',
      values: {
        id: ID.payout,
        user_id: creator.id,
        amount_cents: 2500,
        status: 'paid',
        method: 'bank_transfer',
        bank_account_id: ID.bank,
        account_holder_name: 'Cleo Upgrade',
        iban: 'SE4550000000058398257466',
        decided_by_user_id: admin.id,
        paid_at: T0,
      },
    },
    {
      // A Stripe payout whose transfer reached the connected account, then whose bank payout failed.
      table: 'payouts',
      values: {
        id: ID.stripePayout,
        user_id: creator.id,
        amount_cents: 1500,
        status: 'failed',
        method: 'stripe',
        account_holder_name: 'Cleo Upgrade',
        iban: 'SE4550000000058398257466',
        stripe_account_id: 'acct_upgrade',
        stripe_transfer_id: 'tr_upgrade',
        transferred_at: T0,
        stripe_payout_id: 'po_upgrade',
        failure_code: 'account_closed',
        failure_reason: 'The bank account has been closed',
        failed_at: T0,
      },
    },
  ];
}

/** A campaign with its material, an accepted application and the collaboration. */
function campaignRows(): FixtureRow[] {
  const { creator, brand, asset, campaign } = FIXTURE;
  return [
    {
      table: 'campaigns',
      values: {
        id: campaign.id,
        brand_user_id: brand.id,
        title: campaign.title,
        description: 'Our new running shoe',
        objective: 'Awareness for the spring running shoe',
        status: 'running',
        budget_cents: 25_000,
        held_cents: 25_000,
        platforms: ['instagram'],
        content_types: ['video'],
        deliverables: [{ type: 'Instagram reels', quantity: 1, platform: 'instagram', contentType: 'video' }],
        created_at: T0,
      },
    },
    {
      table: 'campaign_materials',
      values: { campaign_id: campaign.id, asset_id: asset.id, type: 'image', url: `/api/images/${asset.key}` },
    },
    {
      table: 'campaign_applications',
      values: {
        id: ID.application,
        campaign_id: campaign.id,
        creator_user_id: creator.id,
        message: 'I run these trails every week',
        rate_cents: 20_000,
        status: 'accepted',
        decided_at: T0,
      },
    },
    {
      table: 'collaborations',
      values: {
        id: ID.collaboration,
        campaign_id: campaign.id,
        creator_user_id: creator.id,
        application_id: ID.application,
        agreed_cents: 20_000,
      },
    },
  ];
}

/** Social accounts and posts, and the sandbox platform behind them. */
function socialRows(): FixtureRow[] {
  const { creator } = FIXTURE;
  return [
    {
      table: 'social_accounts',
      values: {
        user_id: creator.id,
        platform: 'instagram',
        mode: 'sandbox',
        username: 'cleo.runs',
        follower_count: 1200,
        access_token_sealed: 'v1.sealed-token',
      },
    },
    {
      table: 'social_oauth_states',
      values: {
        state: 'oauth-state-1',
        user_id: creator.id,
        platform: 'tiktok',
        code_verifier_sealed: 'v1.sealed-verifier',
        expires_at: T0,
        browser_nonce_hash: 'nonce-hash-1',
      },
    },
    {
      table: 'social_posts',
      values: {
        user_id: creator.id,
        platform: 'instagram',
        message: 'Spring trail run, day one',
        scheduled_time: T0,
        status: 'published',
        collaboration_id: ID.collaboration,
        share_url: '/social/sandbox/instagram/p/1',
        published_at: T0,
        views: 340,
      },
    },
    {
      table: 'sandbox_grants',
      values: {
        id: ID.grant,
        platform: 'instagram',
        user_id: creator.id,
        username: 'cleo.runs',
        code_challenge: 'chal',
      },
    },
    {
      table: 'sandbox_posts',
      values: {
        id: ID.sandboxPost,
        platform: 'instagram',
        grant_id: ID.grant,
        username: 'cleo.runs',
        idempotency_key: 'post-1',
        message: 'Spring trail run, day one',
        views: 340,
      },
    },
    { table: 'sandbox_post_likes', values: { post_id: ID.sandboxPost, visitor_hash: 'visitor-1' } },
    { table: 'sandbox_post_views', values: { post_id: ID.sandboxPost, visitor_hash: 'visitor-1', day: '2026-01-15' } },
    {
      table: 'sandbox_follows',
      values: { platform: 'instagram', owner_user_id: creator.id, visitor_hash: 'visitor-1' },
    },
  ];
}

/** Notifications, mail, and the admin audit log. */
function notificationAndAdminRows(): FixtureRow[] {
  const { creator, admin, campaign } = FIXTURE;
  return [
    {
      table: 'notifications',
      values: {
        user_id: creator.id,
        kind: 'application_accepted',
        subject: 'You are in',
        text: 'Trailworks accepted your application.',
        path: `/dashboard/campaigns/${campaign.id}/manage`,
        status: 'sent',
        sent_at: T0,
      },
    },
    { table: 'notification_schedule', values: { user_id: creator.id, last_weekly_report_at: T0 } },
    {
      table: 'mail_outbox',
      values: {
        to: creator.email,
        subject: 'Your code',
        text: 'Your code is 123456',
        transport: 'outbox',
        sent_at: T0,
      },
    },
    {
      table: 'admin_audit_log',
      values: {
        admin_user_id: admin.id,
        admin_email: admin.email,
        action: 'approve_creator',
        target_type: 'user',
        target_id: creator.id,
        details: { from: 'pending', to: 'approved_creator' },
      },
    },
  ];
}

/** The INSERT of one row: jsonb values (objects, arrays) as JSON text, dates as ISO strings. */
export function insertStatement(row: FixtureRow): { text: string; values: unknown[] } {
  const columns = Object.keys(row.values);
  const values = columns.map((column) => {
    const value = row.values[column];
    if (value instanceof Date) return value.toISOString();
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    return value;
  });
  return {
    text: `insert into public."${row.table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    values,
  };
}
