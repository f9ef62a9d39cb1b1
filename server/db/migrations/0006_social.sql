CREATE TABLE "sandbox_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform" text NOT NULL,
	"user_id" uuid NOT NULL,
	"username" text NOT NULL,
	"code_hash" text,
	"code_challenge" text NOT NULL,
	"code_expires_at" timestamp with time zone,
	"access_token_hash" text,
	"access_expires_at" timestamp with time zone,
	"refresh_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform" text NOT NULL,
	"grant_id" uuid,
	"username" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"message" text NOT NULL,
	"media_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"mode" text NOT NULL,
	"external_id" text,
	"username" text,
	"follower_count" integer DEFAULT 0 NOT NULL,
	"access_token_sealed" text NOT NULL,
	"refresh_token_sealed" text,
	"token_expires_at" timestamp with time zone,
	"status" text DEFAULT 'connected' NOT NULL,
	"error_message" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_oauth_states" (
	"state" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"code_verifier_sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"message" text NOT NULL,
	"media_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scheduled_time" timestamp with time zone NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"origin" text DEFAULT 'scheduled' NOT NULL,
	"task_id" uuid,
	"collaboration_id" uuid,
	"media_type" text DEFAULT 'text' NOT NULL,
	"error_message" text,
	"share_url" text,
	"external_id" text,
	"published_at" timestamp with time zone,
	"views" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_grants" ADD CONSTRAINT "sandbox_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_posts" ADD CONSTRAINT "sandbox_posts_grant_id_sandbox_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."sandbox_grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_oauth_states" ADD CONSTRAINT "social_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_posts" ADD CONSTRAINT "social_posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_posts" ADD CONSTRAINT "social_posts_collaboration_id_collaborations_id_fk" FOREIGN KEY ("collaboration_id") REFERENCES "public"."collaborations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_grants_code_idx" ON "sandbox_grants" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_grants_access_idx" ON "sandbox_grants" USING btree ("access_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_grants_refresh_idx" ON "sandbox_grants" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_posts_idempotency_idx" ON "sandbox_posts" USING btree ("platform","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "social_accounts_user_platform_idx" ON "social_accounts" USING btree ("user_id","platform");--> statement-breakpoint
CREATE INDEX "social_posts_due_idx" ON "social_posts" USING btree ("status","scheduled_time");--> statement-breakpoint
CREATE INDEX "social_posts_user_idx" ON "social_posts" USING btree ("user_id","scheduled_time");--> statement-breakpoint
CREATE INDEX "social_posts_collaboration_idx" ON "social_posts" USING btree ("collaboration_id");