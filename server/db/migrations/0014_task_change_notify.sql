-- Every committed change to a task row (created, started, progress, result, failure) is announced on
-- `genpro_task_changed` as `<user id>:<task id>`: GET /api/tasks/events reads the row and pushes it to that
-- user's open event streams.
CREATE OR REPLACE FUNCTION genpro_notify_task_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('genpro_task_changed', NEW.user_id::text || ':' || NEW.id::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tasks_change_notify AFTER INSERT OR UPDATE ON tasks
FOR EACH ROW EXECUTE FUNCTION genpro_notify_task_changed();
