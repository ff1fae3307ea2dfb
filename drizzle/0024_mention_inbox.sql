-- Decision 0030 (issue 28 §3): mentions that reach people. Each mention is an entry of the mentioned
-- user's inbox on /notificaciones, counted on their bell until they read it: the comment's instant
-- (created_at, the list's order) and when they read it (read_at, null while unread). Two indexes
-- replace the one on user_id alone: a user's mentions newest first, and their unread ones (the bell's
-- count and 'Sin leer'); the first also serves the cascade from profiles.
DROP INDEX "flow_task_comment_mentions_user_idx";--> statement-breakpoint
ALTER TABLE "flow_task_comment_mentions" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "flow_task_comment_mentions" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "flow_task_comment_mentions_user_newest_idx" ON "flow_task_comment_mentions" USING btree ("user_id","created_at" DESC NULLS LAST,"comment_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "flow_task_comment_mentions_unread_idx" ON "flow_task_comment_mentions" USING btree ("user_id","created_at" DESC NULLS LAST,"comment_id" DESC NULLS LAST) WHERE "flow_task_comment_mentions"."read_at" is null;--> statement-breakpoint
-- Each existing mention takes its comment's instant (the column's default was the migration's). The
-- audit's triggers stay off: nothing of a business record changes.
ALTER TABLE flow_task_comment_mentions DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE flow_task_comment_mentions m SET created_at = c.created_at
  FROM flow_task_comments c WHERE c.id = m.comment_id;--> statement-breakpoint
ALTER TABLE flow_task_comment_mentions ENABLE TRIGGER USER;--> statement-breakpoint
-- A read mark is the reader's own state, not a business change: the audit leaves a column named
-- read_at out, as it leaves the bookkeeping columns out, so marking read writes no log row (an
-- update that changes nothing logged logs nothing). audit_install of 0019 with that one more rule,
-- then the mentions' audit installed again (its functions are generated from the columns: created_at
-- and read_at are left out).
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
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', 'audit_' || target, target);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
                 'audit_' || target, target, 'audit_' || target);
  INSERT INTO audit_tables (table_name, root_table) VALUES (target, root_table)
    ON CONFLICT (table_name) DO UPDATE SET root_table = excluded.root_table;
END $$;
--> statement-breakpoint
SELECT audit_install('flow_task_comment_mentions', '{comment_id,user_id}', 'flows',
  '(SELECT ft.flow_id FROM flow_task_comments c JOIN flow_tasks ft ON ft.id = c.flow_task_id WHERE c.id = r.comment_id)');
--> statement-breakpoint
ANALYZE flow_task_comment_mentions;
