CREATE TABLE "dashboard_broker_figures" (
	"broker_id" uuid PRIMARY KEY NOT NULL,
	"reservations" integer DEFAULT 0 NOT NULL,
	"commissions" integer DEFAULT 0 NOT NULL,
	"commission_amount" numeric(18, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_counts" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"clients" integer DEFAULT 0 NOT NULL,
	"brokers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_counts_singleton_check" CHECK ("dashboard_counts"."singleton")
);
--> statement-breakpoint
CREATE TABLE "dashboard_month_figures" (
	"month" date PRIMARY KEY NOT NULL,
	"reservations" integer DEFAULT 0 NOT NULL,
	"commission_amount" numeric(18, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_project_figures" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard_broker_figures" ADD CONSTRAINT "dashboard_broker_figures_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_project_figures" ADD CONSTRAINT "dashboard_project_figures_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_broker_figures_top_idx" ON "dashboard_broker_figures" USING btree ("commission_amount" DESC NULLS LAST);--> statement-breakpoint
-- The refresh recomputes the touched rollup rows (projects, months, brokers) from the tables,
-- through their indexes: exact whatever order cascades and triggers run in, so nothing can drift.
-- Keys that no longer exist (a project or broker deleted) are skipped.
CREATE FUNCTION dashboard_refresh(touched_projects uuid[], touched_months date[], touched_brokers uuid[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_project_figures (project_id, reserved)
  SELECT p.id, (SELECT count(*) FROM reservations r WHERE r.project_id = p.id AND NOT r.is_rescinded)
    FROM projects p WHERE p.id = ANY (touched_projects)
  ON CONFLICT (project_id) DO UPDATE SET reserved = excluded.reserved;
  INSERT INTO dashboard_month_figures (month, reservations, commission_amount)
  SELECT m.month,
         (SELECT count(*) FROM reservations r
           WHERE r.reservation_date >= m.month AND r.reservation_date < (m.month + interval '1 month')::date
             AND NOT r.is_rescinded),
         (SELECT coalesce(sum(bc.commission_amount), 0) FROM reservations r
            JOIN broker_commissions bc ON bc.reservation_id = r.id
           WHERE r.reservation_date >= m.month AND r.reservation_date < (m.month + interval '1 month')::date
             AND NOT r.is_rescinded AND r.broker_id IS NOT NULL)
    FROM (SELECT DISTINCT unnest(touched_months) AS month) m
   WHERE m.month IS NOT NULL
  ON CONFLICT (month) DO UPDATE
    SET reservations = excluded.reservations, commission_amount = excluded.commission_amount;
  INSERT INTO dashboard_broker_figures (broker_id, reservations, commissions, commission_amount)
  SELECT b.id,
         (SELECT count(*) FROM reservations r WHERE r.broker_id = b.id AND NOT r.is_rescinded),
         c.n, c.amount
    FROM brokers b
    CROSS JOIN LATERAL (
      SELECT count(*) AS n, coalesce(sum(bc.commission_amount), 0) AS amount
        FROM broker_commissions bc JOIN reservations r ON r.id = bc.reservation_id
       WHERE bc.broker_id = b.id AND NOT r.is_rescinded) c
   WHERE b.id = ANY (touched_brokers)
  ON CONFLICT (broker_id) DO UPDATE
    SET reservations = excluded.reservations, commissions = excluded.commissions,
        commission_amount = excluded.commission_amount;
$$;
--> statement-breakpoint
-- Every rollup from scratch: after bulk loads that skip triggers (the benchmark generator) and here.
CREATE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM dashboard_project_figures;
  DELETE FROM dashboard_month_figures;
  DELETE FROM dashboard_broker_figures;
  DELETE FROM dashboard_counts;
  SELECT dashboard_refresh(
    array(SELECT id FROM projects),
    array(SELECT DISTINCT date_trunc('month', reservation_date)::date FROM reservations),
    array(SELECT id FROM brokers));
  INSERT INTO dashboard_counts (singleton, clients, brokers)
  SELECT true, (SELECT count(*) FROM clients WHERE deleted_at IS NULL), (SELECT count(*) FROM brokers);
$$;
--> statement-breakpoint
-- Statement-level triggers with transition tables: a bulk statement refreshes each touched key once.
CREATE FUNCTION dashboard_reservations_inserted_or_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_refresh(
    array(SELECT DISTINCT project_id FROM changed_rows),
    array(SELECT DISTINCT date_trunc('month', reservation_date)::date FROM changed_rows),
    array(SELECT broker_id FROM changed_rows WHERE broker_id IS NOT NULL
          UNION SELECT bc.broker_id FROM broker_commissions bc JOIN changed_rows c ON c.id = bc.reservation_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_reservations_inserted AFTER INSERT ON reservations
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_reservations_inserted_or_deleted();
--> statement-breakpoint
CREATE TRIGGER dashboard_reservations_deleted AFTER DELETE ON reservations
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_reservations_inserted_or_deleted();
--> statement-breakpoint
-- Only the rows whose project, date, rescission or broker changed touch the dashboard.
CREATE FUNCTION dashboard_reservations_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  refreshed record;
BEGIN
  WITH changed AS (
    SELECT k.id, k.project_id, k.month, k.broker_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES
       (o.id, o.project_id, date_trunc('month', o.reservation_date)::date, o.broker_id),
       (n.id, n.project_id, date_trunc('month', n.reservation_date)::date, n.broker_id)) AS k(id, project_id, month, broker_id)
     WHERE (o.project_id, o.reservation_date, o.is_rescinded, o.broker_id)
           IS DISTINCT FROM (n.project_id, n.reservation_date, n.is_rescinded, n.broker_id))
  SELECT dashboard_refresh(
           array(SELECT DISTINCT project_id FROM changed),
           array(SELECT DISTINCT month FROM changed),
           array(SELECT broker_id FROM changed WHERE broker_id IS NOT NULL
                 UNION SELECT bc.broker_id FROM broker_commissions bc JOIN changed c ON c.id = bc.reservation_id)) AS done
    INTO refreshed
   WHERE EXISTS (SELECT 1 FROM changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_reservations_updated AFTER UPDATE ON reservations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_reservations_updated();
--> statement-breakpoint
CREATE FUNCTION dashboard_commissions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_refresh(
    array[]::uuid[],
    array(SELECT DISTINCT date_trunc('month', r.reservation_date)::date
            FROM changed_rows c JOIN reservations r ON r.id = c.reservation_id),
    array(SELECT DISTINCT broker_id FROM changed_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_commissions_inserted AFTER INSERT ON broker_commissions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_commissions_changed();
--> statement-breakpoint
CREATE TRIGGER dashboard_commissions_deleted AFTER DELETE ON broker_commissions
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_commissions_changed();
--> statement-breakpoint
-- An update may move a commission between brokers or reservations: both sides are refreshed.
CREATE FUNCTION dashboard_commissions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_refresh(
    array[]::uuid[],
    array(SELECT DISTINCT date_trunc('month', r.reservation_date)::date
            FROM (SELECT reservation_id FROM old_rows UNION SELECT reservation_id FROM new_rows) c
            JOIN reservations r ON r.id = c.reservation_id),
    array(SELECT broker_id FROM old_rows UNION SELECT broker_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_commissions_updated AFTER UPDATE ON broker_commissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_commissions_updated();
--> statement-breakpoint
CREATE FUNCTION dashboard_client_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN delta := delta - 1; END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN delta := delta + 1; END IF;
  IF delta <> 0 THEN UPDATE dashboard_counts SET clients = clients + delta; END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_client_changed AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON clients
  FOR EACH ROW EXECUTE FUNCTION dashboard_client_changed();
--> statement-breakpoint
CREATE FUNCTION dashboard_broker_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE dashboard_counts SET brokers = brokers + CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_broker_counted AFTER INSERT OR DELETE ON brokers
  FOR EACH ROW EXECUTE FUNCTION dashboard_broker_counted();
--> statement-breakpoint
SELECT dashboard_rebuild();
