-- Decision 0033 (issue 32): an audited table's insertions are logged by ONE statement per inserting
-- statement instead of one trigger call per row. A set-based write (an import's 500 task rows of 20
-- reservations' flows) paid a PL/pgSQL call and a one-row INSERT into audit_log for each row; now an
-- AFTER INSERT ... FOR EACH STATEMENT trigger inserts every row's log entry from the statement's new
-- rows (a transition table) at once. The entries are the same, column for column (the row's key,
-- root and document through the table's own audit_<table>_key/_root/_doc functions; the actor, the
-- request and the instant of the transaction), in the order the rows were inserted; an insert of no
-- rows logs nothing and needs no actor, as before. Updates and deletes keep their row trigger (an
-- update compares each row with its old self; a delete cascades). audit_install now installs both,
-- and every table already audited gets the new pair here.
CREATE OR REPLACE FUNCTION audit_install_triggers(target text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  root text;
BEGIN
  SELECT a.root_table INTO STRICT root FROM audit_tables a WHERE a.table_name = target;
  EXECUTE format($body$
    CREATE OR REPLACE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      actor uuid;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
        RETURN NULL;
      END IF;
      actor := audit_actor();
      INSERT INTO audit_log (occurred_at, actor_id, request_id, action, table_name, record_id, root_table, root_id, before, after)
      SELECT audit_instant(), actor, nullif(current_setting('inmoflujo.request', true), ''), 'insert', TG_TABLE_NAME,
             %2$I(r), %3$L, %4$I(r), NULL, %5$I(r)
        FROM new_rows r;
      RETURN NULL;
    END $fn$
  $body$,
    'audit_' || target || '_inserted', 'audit_' || target || '_key', root, 'audit_' || target || '_root',
    'audit_' || target || '_doc');
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'audit_' || target, target);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
                 'audit_' || target, target, 'audit_' || target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'audit_' || target || '_inserted', target);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
                 'audit_' || target || '_inserted', target, 'audit_' || target || '_inserted');
END $$;
--> statement-breakpoint
-- audit_install of 0024, its triggers now installed by audit_install_triggers.
CREATE OR REPLACE FUNCTION audit_install(target text, key_columns text[], root_table text, root_expression text,
                              secret_columns text[] DEFAULT '{}') RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  skipped text[];
  numerics text;
  secrets_changed text;
  record_key text;
BEGIN
  SELECT coalesce(array_agg(c.column_name::text), '{}') INTO skipped
    FROM information_schema.columns c
   WHERE c.table_schema = 'public' AND c.table_name = target
     AND (c.is_generated = 'ALWAYS'
          OR c.column_name LIKE '%search_text'
          OR c.column_name = 'read_at'
          OR c.column_name IN ('version', 'created_at', 'updated_at', 'created_by', 'updated_by')
          OR c.column_name = ANY (secret_columns));
  SELECT coalesce(string_agg(format('%L, r.%I::text', c.column_name, c.column_name), ', '), '') INTO numerics
    FROM information_schema.columns c
   WHERE c.table_schema = 'public' AND c.table_name = target AND c.data_type = 'numeric'
     AND c.is_generated <> 'ALWAYS';
  SELECT coalesce(string_agg(format(
           'CASE WHEN OLD.%I IS DISTINCT FROM NEW.%I THEN jsonb_build_object(%L, ''[oculto]'') ELSE ''{}''::jsonb END',
           s, s, s), ' || '), '''{}''::jsonb') INTO secrets_changed
    FROM unnest(secret_columns) s;
  SELECT string_agg(format('r.%I::text', k), ' || '':'' || ') INTO record_key FROM unnest(key_columns) k;

  EXECUTE format('CREATE OR REPLACE FUNCTION %I(r %I) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $fn$ SELECT (to_jsonb(r) - %L::text[]) || jsonb_build_object(%s) $fn$',
                 'audit_' || target || '_doc', target, skipped, numerics);
  EXECUTE format('CREATE OR REPLACE FUNCTION %I(r %I) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$ SELECT %s $fn$',
                 'audit_' || target || '_key', target, record_key);
  EXECUTE format('CREATE OR REPLACE FUNCTION %I(r %I) RETURNS uuid LANGUAGE sql STABLE AS $fn$ SELECT %s $fn$',
                 'audit_' || target || '_root', target, root_expression);
  EXECUTE format($body$
    CREATE OR REPLACE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      actor uuid := audit_actor();
      r %2$I;
      before_values jsonb;
      after_values jsonb;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        r := NEW;
        after_values := %3$I(NEW);
      ELSIF TG_OP = 'DELETE' THEN
        r := OLD;
        before_values := %3$I(OLD);
      ELSE
        r := NEW;
        SELECT jsonb_object_agg(n.key, o.value), jsonb_object_agg(n.key, n.value)
          INTO before_values, after_values
          FROM jsonb_each(%3$I(NEW)) n JOIN jsonb_each(%3$I(OLD)) o ON o.key = n.key
         WHERE n.value IS DISTINCT FROM o.value;
        before_values := coalesce(before_values, '{}'::jsonb) || %4$s;
        after_values := coalesce(after_values, '{}'::jsonb) || %4$s;
        IF before_values = '{}'::jsonb THEN
          RETURN NULL;
        END IF;
      END IF;
      INSERT INTO audit_log (occurred_at, actor_id, request_id, action, table_name, record_id, root_table, root_id, before, after)
      VALUES (audit_instant(), actor, nullif(current_setting('inmoflujo.request', true), ''), lower(TG_OP), TG_TABLE_NAME,
              %5$I(r), %6$L, %7$I(r), before_values, after_values);
      RETURN NULL;
    END $fn$
  $body$,
    'audit_' || target, target, 'audit_' || target || '_doc', secrets_changed,
    'audit_' || target || '_key', root_table, 'audit_' || target || '_root');
  INSERT INTO audit_tables (table_name, root_table) VALUES (target, root_table)
    ON CONFLICT (table_name) DO UPDATE SET root_table = excluded.root_table;
  PERFORM audit_install_triggers(target);
END $$;
--> statement-breakpoint
SELECT audit_install_triggers(table_name) FROM audit_tables ORDER BY table_name;
--> statement-breakpoint
-- Decision 0033 (issue 32): the dashboard's figures after an insert of reservations are added to, not
-- recounted. The recount (0006's dashboard_refresh) counted every live reservation of each project,
-- month and broker the statement touched: an import's 250 chunks of one project each counted the
-- project's whole history again. A new reservation adds one to its project, its month and its broker
-- when it is live, and nothing to any commission figure (its commission is inserted after it, and
-- counted by the commissions' own trigger). A figure row that is missing is a figure of zero: every
-- project, month and broker with live reservations has its row (each insert, update and delete has
-- written it since 0006's rebuild). Updates and deletes still recount.
CREATE FUNCTION dashboard_reservations_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_project_figures AS f (project_id, reserved)
  SELECT project_id, count(*) FROM changed_rows WHERE NOT is_rescinded GROUP BY project_id
  ON CONFLICT (project_id) DO UPDATE SET reserved = f.reserved + excluded.reserved;
  INSERT INTO dashboard_month_figures AS f (month, reservations, commission_amount)
  SELECT date_trunc('month', reservation_date)::date, count(*), 0
    FROM changed_rows WHERE NOT is_rescinded AND reservation_date IS NOT NULL GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET reservations = f.reservations + excluded.reservations;
  INSERT INTO dashboard_broker_figures AS f (broker_id, reservations, commissions, commission_amount)
  SELECT broker_id, count(*), 0, 0
    FROM changed_rows WHERE NOT is_rescinded AND broker_id IS NOT NULL GROUP BY broker_id
  ON CONFLICT (broker_id) DO UPDATE SET reservations = f.reservations + excluded.reservations;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER dashboard_reservations_inserted ON reservations;
--> statement-breakpoint
CREATE TRIGGER dashboard_reservations_inserted AFTER INSERT ON reservations
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_reservations_added();
--> statement-breakpoint
-- 0035's function for the same trigger (adding to the project and month, recounting the broker), now
-- unused: the trigger above adds to all three.
DROP FUNCTION dashboard_reservations_inserted();
