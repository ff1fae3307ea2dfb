-- Decision 0025: the Flujo de Reservas searches reservations by their client's name through a copy
-- of the client's search_text on each reservation, kept by the triggers below whatever writes.
ALTER TABLE "reservations" ADD COLUMN "client_search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The copy of every existing reservation: derived data, so neither the audit trail nor the
-- dashboard's rollups hear of it.
ALTER TABLE reservations DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE reservations r SET client_search_text = c.search_text FROM clients c WHERE c.id = r.client_id;--> statement-breakpoint
ALTER TABLE reservations ENABLE TRIGGER USER;--> statement-breakpoint
CREATE INDEX "reservations_client_search_trgm_idx" ON "reservations" USING gin ("client_search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- A reservation takes its client's search_text when it is written with a client, and whenever
-- anything tries to set the copy itself: the client's row is the only truth.
CREATE FUNCTION reservations_copy_client_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.client_search_text := (SELECT c.search_text FROM clients c WHERE c.id = NEW.client_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER reservations_client_search BEFORE INSERT OR UPDATE OF client_id, client_search_text ON reservations
  FOR EACH ROW EXECUTE FUNCTION reservations_copy_client_search();
--> statement-breakpoint
-- A client whose name or RUT changes passes it on to their reservations, in the same statement.
CREATE FUNCTION clients_share_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reservations SET client_search_text = NEW.search_text WHERE client_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER clients_search_text_shared AFTER UPDATE ON clients
  FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION clients_share_search_text();
--> statement-breakpoint
-- The audit leaves search columns out, the copy included (it mirrors an audited value of clients):
-- audit_install of 0017 with one more rule, then reservations' audit installed again.
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
SELECT audit_install('reservations', '{id}', 'reservations', 'r.id');
--> statement-breakpoint
-- Statistics of the new column now: the embedded database runs no autovacuum, and without them the
-- planner takes a common surname for a rare one (it sorted every Valenzuela for a page of 25).
ANALYZE reservations;
