-- Every committed change to a user row, one of its sessions or its subscription is announced on
-- `genpro_users_changed` with the user's id: the session and subscription caches drop that user's entries.
CREATE OR REPLACE FUNCTION genpro_notify_users_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('genpro_users_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('genpro_users_changed', OLD.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_change_notify AFTER UPDATE OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION genpro_notify_users_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_change_notify AFTER UPDATE OR DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION genpro_notify_users_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION genpro_notify_subscriptions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('genpro_users_changed', OLD.user_id::text);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('genpro_users_changed', NEW.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_change_notify AFTER INSERT OR UPDATE OR DELETE ON subscriptions
FOR EACH ROW EXECUTE FUNCTION genpro_notify_subscriptions_changed();
