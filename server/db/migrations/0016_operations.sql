CREATE TABLE "engine_calls" (
	"kind" text NOT NULL,
	"engine" text NOT NULL,
	"outcome" text NOT NULL,
	"message" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "engine_calls_kind_engine_pk" PRIMARY KEY("kind","engine")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	"running" integer DEFAULT 0 NOT NULL,
	"stopping" boolean DEFAULT false NOT NULL,
	"last_task_id" uuid,
	"last_task_kind" text,
	"last_task_at" timestamp with time zone,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "request_id" text;