CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"request_id" text,
	"action" text NOT NULL,
	"table_name" text NOT NULL,
	"record_id" text NOT NULL,
	"root_table" text NOT NULL,
	"root_id" uuid,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('insert', 'update', 'delete', 'sign_in', 'sign_out'))
);
--> statement-breakpoint
CREATE INDEX "audit_log_root_idx" ON "audit_log" USING btree ("root_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_table_idx" ON "audit_log" USING btree ("root_table","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- The audit trail (decision 0024). The log is append-only: the database itself refuses to change,
-- remove or empty it, whoever asks.
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'AU002';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
-- Who is changing: every writing transaction declares it with
-- set_config('inmoflujo.actor', '<user id>' | 'sistema', true) (src/server/db/actor.ts). A change
-- that declares nobody is refused: no row of a business table changes without a known author.
CREATE FUNCTION audit_actor() RETURNS uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  actor text := current_setting('inmoflujo.actor', true);
BEGIN
  IF actor IS NULL OR actor = '' THEN
    RAISE EXCEPTION 'a change to a business table needs an actor (inmoflujo.actor)' USING ERRCODE = 'AU001';
  END IF;
  IF actor = 'sistema' THEN
    RETURN NULL;
  END IF;
  RETURN actor::uuid;
END $$;
--> statement-breakpoint
-- When: the request's instant when the transaction declares one (the app's one clock per request),
-- else the transaction's.
CREATE FUNCTION audit_instant() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('inmoflujo.at', true), '')::timestamptz, now())
$$;
--> statement-breakpoint
-- The audited tables and the record whose 'Historial' shows each one's changes.
CREATE TABLE audit_tables (
  table_name text PRIMARY KEY,
  root_table text NOT NULL
);
--> statement-breakpoint
-- Installs the audit of one table: functions of static SQL (their plans are cached), generated here
-- from the table's columns so that they stay exact:
--   audit_<t>_doc(row)  the row as the log writes it: generated columns and the bookkeeping columns
--                       (version, created/updated at/by) left out, numeric columns as decimal strings
--                       ('135.50', never a JSON number), secret columns never;
--   audit_<t>_key(row)  the row's key as text (composite keys joined by ':');
--   audit_<t>_root(row) the id of the record whose 'Historial' shows the change (root_table);
--   audit_<t>()         the row trigger: insert (after = the row), delete (before = the row), update
--                       (only the fields that changed, nothing when none did; a secret that changed
--                       says '[oculto]' on both sides).
-- root_expression is SQL over the row `r`. Idempotent: a migration that adds a column to an audited
-- table calls it again, so that the new column is written as the others are.
CREATE FUNCTION audit_install(target text, key_columns text[], root_table text, root_expression text,
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
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'audit_' || target, target);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
                 'audit_' || target, target, 'audit_' || target);
  INSERT INTO audit_tables (table_name, root_table) VALUES (target, root_table)
    ON CONFLICT (table_name) DO UPDATE SET root_table = excluded.root_table;
END $$;
--> statement-breakpoint
-- Every row of the audited tables as an insert by 'sistema': the state before the audit began (run
-- once below), or, with only_this_transaction, the rows a bulk load wrote with triggers off (the
-- benchmark generator).
CREATE FUNCTION audit_backfill(only_this_transaction boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t audit_tables;
BEGIN
  FOR t IN SELECT * FROM audit_tables ORDER BY table_name LOOP
    EXECUTE format(
      'INSERT INTO audit_log (actor_id, action, table_name, record_id, root_table, root_id, after)
       SELECT NULL, ''insert'', %L, %I(r), %L, %I(r), %I(r) FROM %I r %s',
      t.table_name, 'audit_' || t.table_name || '_key', t.root_table, 'audit_' || t.table_name || '_root',
      'audit_' || t.table_name || '_doc', t.table_name,
      CASE WHEN only_this_transaction THEN 'WHERE r.xmin = pg_current_xact_id()::xid' ELSE '' END);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT audit_install('clients', '{id}', 'clients', 'r.id');
--> statement-breakpoint
SELECT audit_install('brokers', '{id}', 'brokers', 'r.id');
--> statement-breakpoint
SELECT audit_install('reservations', '{id}', 'reservations', 'r.id');
--> statement-breakpoint
SELECT audit_install('promotions', '{id}', 'reservations', 'r.reservation_id');
--> statement-breakpoint
SELECT audit_install('broker_commissions', '{id}', 'reservations', 'r.reservation_id');
--> statement-breakpoint
SELECT audit_install('flows', '{id}', 'flows', 'r.id');
--> statement-breakpoint
SELECT audit_install('flow_tasks', '{id}', 'flows', 'r.flow_id');
--> statement-breakpoint
SELECT audit_install('flow_task_assignees', '{flow_task_id,user_id}', 'flows', 'r.flow_id');
--> statement-breakpoint
SELECT audit_install('flow_task_comments', '{id}', 'flows',
  '(SELECT ft.flow_id FROM flow_tasks ft WHERE ft.id = r.flow_task_id)');
--> statement-breakpoint
SELECT audit_install('flow_task_comment_mentions', '{comment_id,user_id}', 'flows',
  '(SELECT ft.flow_id FROM flow_task_comments c JOIN flow_tasks ft ON ft.id = c.flow_task_id WHERE c.id = r.comment_id)');
--> statement-breakpoint
SELECT audit_install('real_estate_agencies', '{id}', 'real_estate_agencies', 'r.id');
--> statement-breakpoint
SELECT audit_install('projects', '{id}', 'projects', 'r.id');
--> statement-breakpoint
SELECT audit_install('profiles', '{id}', 'profiles', 'r.id', '{password_hash}');
--> statement-breakpoint
SELECT audit_install('roles', '{id}', 'roles', 'r.id');
--> statement-breakpoint
SELECT audit_install('user_roles', '{user_id,role_id}', 'profiles', 'r.user_id');
--> statement-breakpoint
SELECT audit_install('default_seller', '{id}', 'default_seller', 'r.id');
--> statement-breakpoint
SELECT audit_install('workflows', '{id}', 'workflows', 'r.id');
--> statement-breakpoint
SELECT audit_install('workflow_stages', '{id}', 'workflows', 'r.workflow_id');
--> statement-breakpoint
SELECT audit_install('workflow_tasks', '{id}', 'workflows',
  '(SELECT s.workflow_id FROM workflow_stages s WHERE s.id = r.stage_id)');
--> statement-breakpoint
SELECT audit_install('workflow_task_prerequisites', '{task_id,prerequisite_task_id}', 'workflows',
  '(SELECT s.workflow_id FROM workflow_tasks t JOIN workflow_stages s ON s.id = t.stage_id WHERE t.id = r.task_id)');
--> statement-breakpoint
SELECT audit_install('workflow_task_default_assignees', '{task_id,user_id}', 'workflows',
  '(SELECT s.workflow_id FROM workflow_tasks t JOIN workflow_stages s ON s.id = t.stage_id WHERE t.id = r.task_id)');

--> statement-breakpoint
SELECT audit_backfill(false);
