CREATE TABLE "campaign_workspace_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_type" text NOT NULL,
	"persona_id" uuid,
	"asset_id" uuid,
	"campaign_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"personality" text NOT NULL,
	"target_audience" text,
	"nationality" text,
	"language" text NOT NULL,
	"character_images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"based_on" text,
	"avatar_url" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"images" jsonb NOT NULL,
	"license_type" text DEFAULT 'free' NOT NULL,
	"license_price_cents" integer DEFAULT 0 NOT NULL,
	"total_reach" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'generating' NOT NULL,
	"generation_progress" integer DEFAULT 0 NOT NULL,
	"generation_task_id" uuid,
	"generation_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_workspace_items" ADD CONSTRAINT "campaign_workspace_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_workspace_items" ADD CONSTRAINT "campaign_workspace_items_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_workspace_items" ADD CONSTRAINT "campaign_workspace_items_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_user_persona_uq" ON "campaign_workspace_items" USING btree ("user_id","persona_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_user_asset_uq" ON "campaign_workspace_items" USING btree ("user_id","asset_id");--> statement-breakpoint
CREATE INDEX "workspace_user_idx" ON "campaign_workspace_items" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "workspace_persona_idx" ON "campaign_workspace_items" USING btree ("persona_id");--> statement-breakpoint
CREATE INDEX "personas_user_idx" ON "personas" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "personas_public_idx" ON "personas" USING btree ("is_public");