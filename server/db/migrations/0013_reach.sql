CREATE TABLE "sandbox_follows" (
	"platform" text NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_follows_platform_owner_user_id_visitor_hash_pk" PRIMARY KEY("platform","owner_user_id","visitor_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox_post_likes" (
	"post_id" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_post_likes_post_id_visitor_hash_pk" PRIMARY KEY("post_id","visitor_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox_post_views" (
	"post_id" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_post_views_post_id_visitor_hash_day_pk" PRIMARY KEY("post_id","visitor_hash","day")
);
--> statement-breakpoint
ALTER TABLE "social_accounts" ALTER COLUMN "follower_count" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "social_accounts" ALTER COLUMN "follower_count" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD COLUMN "metrics_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_posts" ADD COLUMN "likes" integer;--> statement-breakpoint
ALTER TABLE "social_posts" ADD COLUMN "comments" integer;--> statement-breakpoint
ALTER TABLE "social_posts" ADD COLUMN "shares" integer;--> statement-breakpoint
ALTER TABLE "social_posts" ADD COLUMN "metrics_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_follows" ADD CONSTRAINT "sandbox_follows_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_post_likes" ADD CONSTRAINT "sandbox_post_likes_post_id_sandbox_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."sandbox_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_post_views" ADD CONSTRAINT "sandbox_post_views_post_id_sandbox_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."sandbox_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personas" DROP COLUMN "total_reach";--> statement-breakpoint
-- LinkedIn accounts were stored with 0 followers before the studio could read the count: unknown, not 0.
UPDATE "social_accounts" SET "follower_count" = NULL WHERE "platform" = 'linkedin' AND "mode" = 'live';
