-- Each editor tool keeps one autosave per user (the canvas's work survives a reload), apart from sessions saved by hand.
ALTER TABLE "editor_sessions" ADD COLUMN "autosave" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "editor_sessions_autosave_idx" ON "editor_sessions" USING btree ("user_id","component_type") WHERE "editor_sessions"."autosave";