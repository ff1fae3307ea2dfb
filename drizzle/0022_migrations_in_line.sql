-- Issue 29: migrations 0006 and 0018 were edited after they were committed, so a database that had
-- applied their first versions kept what those made (the migrator never runs a migration twice). From
-- here on a committed migration is never edited (a test pins each one's hash); this one brings such a
-- database in line with the current versions, and changes nothing on one that applied them.
-- (0003's edit was a comment only.)

-- 0006, first version: the live clients and brokers were counted by row triggers; now per statement.
DROP TRIGGER IF EXISTS dashboard_client_changed ON clients;
--> statement-breakpoint
DROP FUNCTION IF EXISTS dashboard_client_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_broker_counted ON brokers;
--> statement-breakpoint
DROP FUNCTION IF EXISTS dashboard_broker_counted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_clients_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows WHERE deleted_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM old_rows WHERE deleted_at IS NULL;
  ELSE
    SELECT (SELECT count(*) FROM new_rows WHERE deleted_at IS NULL) - (SELECT count(*) FROM old_rows WHERE deleted_at IS NULL)
      INTO delta;
  END IF;
  IF delta <> 0 THEN UPDATE dashboard_counts SET clients = clients + delta; END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_brokers_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
BEGIN
  IF TG_OP = 'INSERT' THEN SELECT count(*) INTO delta FROM new_rows;
  ELSE SELECT -count(*) INTO delta FROM old_rows;
  END IF;
  IF delta <> 0 THEN UPDATE dashboard_counts SET brokers = brokers + delta; END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_clients_inserted ON clients;
--> statement-breakpoint
CREATE TRIGGER dashboard_clients_inserted AFTER INSERT ON clients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_clients_counted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_clients_deleted ON clients;
--> statement-breakpoint
CREATE TRIGGER dashboard_clients_deleted AFTER DELETE ON clients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_clients_counted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_clients_updated ON clients;
--> statement-breakpoint
CREATE TRIGGER dashboard_clients_updated AFTER UPDATE ON clients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_clients_counted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_brokers_inserted ON brokers;
--> statement-breakpoint
CREATE TRIGGER dashboard_brokers_inserted AFTER INSERT ON brokers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_brokers_counted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS dashboard_brokers_deleted ON brokers;
--> statement-breakpoint
CREATE TRIGGER dashboard_brokers_deleted AFTER DELETE ON brokers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_brokers_counted();
--> statement-breakpoint
-- 0018, first version: it kept 0015's narrow index of the payment flows in progress; the current one
-- holds the columns Informe de Pagos Brokers reads (decision 0023). Made again only where it differs.
DO $$
BEGIN
  IF (SELECT indexdef FROM pg_indexes WHERE indexname = 'flows_payment_in_progress_idx')
     NOT LIKE '%(id, started_at, created_at, reservation_id, is_second_payment)%' THEN
    DROP INDEX flows_payment_in_progress_idx;
    CREATE INDEX flows_payment_in_progress_idx ON flows USING btree (id, started_at, created_at, reservation_id, is_second_payment)
      WHERE kind = 'payment' AND status = 'in_progress';
  END IF;
END $$;
