-- A social connect flow is bound to the browser that started it (a nonce cookie whose hash is kept with the state).
-- Flows pending at the upgrade have no nonce: they are dropped, and the user starts the connection again.
DELETE FROM "social_oauth_states";
--> statement-breakpoint
ALTER TABLE "social_oauth_states" ADD COLUMN "browser_nonce_hash" text NOT NULL;
