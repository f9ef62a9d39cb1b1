CREATE TABLE "social_publish_journal" (
	"platform" text NOT NULL,
	"account_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"state" jsonb,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_publish_journal_platform_account_id_idempotency_key_pk" PRIMARY KEY("platform","account_id","idempotency_key")
);
--> statement-breakpoint
CREATE INDEX "social_publish_journal_updated_idx" ON "social_publish_journal" USING btree ("updated_at");