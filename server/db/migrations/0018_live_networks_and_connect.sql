ALTER TABLE "user_settings" ADD COLUMN "youtube_privacy" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "charges_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "payouts_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "details_submitted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "requirements_due" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "creator_stripe_accounts" ADD COLUMN "status_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "transferred_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "stripe_payout_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "failure_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "creator_stripe_accounts_account" ON "creator_stripe_accounts" USING btree ("stripe_account_id");