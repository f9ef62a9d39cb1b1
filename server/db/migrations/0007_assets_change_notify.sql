-- Every committed change to a user's assets is announced on `genpro_assets_changed` with the user's id
-- (both ids when an asset changes hands): the asset list cache drops that user's pages when it hears it.
CREATE OR REPLACE FUNCTION genpro_notify_assets_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('genpro_assets_changed', OLD.user_id::text);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    PERFORM pg_notify('genpro_assets_changed', NEW.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER assets_change_notify AFTER INSERT OR UPDATE OR DELETE ON assets
FOR EACH ROW EXECUTE FUNCTION genpro_notify_assets_changed();
