CREATE TABLE "client_blocked_values" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"column_name" text NOT NULL,
	"value" text NOT NULL,
	"request_id" uuid,
	"blocked_at" timestamp with time zone NOT NULL,
	"blocked_by" uuid
);
--> statement-breakpoint
CREATE TABLE "data_subject_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"holder_rut" text NOT NULL,
	"client_id" uuid,
	"received_date" date NOT NULL,
	"due_date" date GENERATED ALWAYS AS ((received_date + 30)) STORED NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"details" text,
	"response" text,
	"answered_at" timestamp with time zone,
	"handled_by" uuid,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "data_subject_requests_kind_check" CHECK ("data_subject_requests"."kind" in ('access', 'rectification', 'suppression', 'opposition', 'portability', 'blocking')),
	CONSTRAINT "data_subject_requests_status_check" CHECK ("data_subject_requests"."status" in ('pending', 'in_progress', 'answered', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "privacy_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"retention_years" integer DEFAULT 5 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "privacy_settings_single_row" CHECK ("privacy_settings"."id"),
	CONSTRAINT "privacy_settings_retention_years" CHECK ("privacy_settings"."retention_years" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "clients" ALTER COLUMN "birth_date" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "suppressed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "suppressed_by" uuid;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "restriction" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "restriction_reason" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "restricted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "restricted_by" uuid;--> statement-breakpoint
ALTER TABLE "client_blocked_values" ADD CONSTRAINT "client_blocked_values_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_blocked_values" ADD CONSTRAINT "client_blocked_values_request_id_data_subject_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."data_subject_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_blocked_values" ADD CONSTRAINT "client_blocked_values_blocked_by_profiles_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_handled_by_profiles_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_blocked_values_client_idx" ON "client_blocked_values" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "data_subject_requests_due_idx" ON "data_subject_requests" USING btree ("due_date","id");--> statement-breakpoint
CREATE INDEX "data_subject_requests_open_idx" ON "data_subject_requests" USING btree ("due_date") WHERE "data_subject_requests"."status" in ('pending', 'in_progress');--> statement-breakpoint
CREATE INDEX "data_subject_requests_client_idx" ON "data_subject_requests" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "data_subject_requests_rut_idx" ON "data_subject_requests" USING btree ("holder_rut");--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_suppressed_by_profiles_id_fk" FOREIGN KEY ("suppressed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_restricted_by_profiles_id_fk" FOREIGN KEY ("restricted_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_comments_idx" ON "audit_log" USING btree ("id") WHERE "audit_log"."table_name" = 'flow_task_comments';--> statement-breakpoint
CREATE INDEX "audit_log_exports_idx" ON "audit_log" USING btree ("id") WHERE "audit_log"."action" = 'export';--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('insert', 'update', 'delete', 'sign_in', 'sign_out', 'export', 'redact', 'read_blocked'));--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_birth_date_until_suppressed" CHECK ("clients"."birth_date" is not null or "clients"."suppressed_at" is not null);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_restriction_check" CHECK ("clients"."restriction" is null or "clients"."restriction" in ('opposition', 'blocking'));--> statement-breakpoint
-- Decision 0027 (Ley 21.719). The audited tables gain the new ones; clients' new columns are logged as
-- the others are (audit_install is idempotent).
SELECT audit_install('clients', '{id}', 'clients', 'r.id');
--> statement-breakpoint
SELECT audit_install('data_subject_requests', '{id}', 'data_subject_requests', 'r.id');
--> statement-breakpoint
SELECT audit_install('privacy_settings', '{id}', 'privacy_settings', 'null::uuid');
--> statement-breakpoint
INSERT INTO privacy_settings (id) VALUES (true);
--> statement-breakpoint
-- Text compared the way search compares it: lower-cased, accents off (as `searchable` in schema.ts).
CREATE FUNCTION privacy_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(translate(value, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))
$$;
--> statement-breakpoint
-- Whether a text holds a needle as whole words, once folded. Needles are regular expressions made by
-- needlePattern (src/shared/domain/privacy.ts), which matches the same way in TypeScript.
CREATE FUNCTION privacy_holds(value text, needles text[]) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT EXISTS (SELECT 1 FROM unnest(needles) n
                  WHERE privacy_fold(value) ~ ('(?<![[:alnum:]_])' || n || '(?![[:alnum:]_])'))
$$;
--> statement-breakpoint
-- Whether a log row's values (a flat object: column -> value) hold any of the needles.
CREATE FUNCTION audit_mentions(doc jsonb, needles text[]) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce((
    SELECT bool_or(privacy_holds(v.value #>> '{}', needles))
      FROM jsonb_each(doc) v
     WHERE jsonb_typeof(v.value) = 'string'), false)
$$;
--> statement-breakpoint
-- The values with every string that holds a needle replaced by '[suprimido]' (whole value).
CREATE FUNCTION audit_redacted(doc jsonb, needles text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN doc IS NULL OR jsonb_typeof(doc) <> 'object' THEN doc ELSE (
    SELECT coalesce(jsonb_object_agg(v.key,
             CASE WHEN jsonb_typeof(v.value) = 'string' AND privacy_holds(v.value #>> '{}', needles)
                  THEN '"[suprimido]"'::jsonb ELSE v.value END), '{}'::jsonb)
      FROM jsonb_each(doc) v) END
$$;
--> statement-breakpoint
-- Whether `after` is `before` with some values replaced by '[suprimido]' and nothing else changed:
-- the only change the log accepts.
CREATE FUNCTION audit_is_redaction(before_doc jsonb, after_doc jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN before_doc IS NULL OR after_doc IS NULL THEN before_doc IS NOT DISTINCT FROM after_doc
    WHEN jsonb_typeof(before_doc) <> 'object' OR jsonb_typeof(after_doc) <> 'object' THEN before_doc = after_doc
    ELSE (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(before_doc) k)
           IS NOT DISTINCT FROM (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(after_doc) k)
     AND NOT EXISTS (SELECT 1 FROM jsonb_each(after_doc) a
                      WHERE a.value IS DISTINCT FROM before_doc -> a.key AND a.value <> '"[suprimido]"'::jsonb)
  END
$$;
--> statement-breakpoint
-- The log stays append-only for everyone: DELETE and TRUNCATE are refused as before; an UPDATE only
-- when it is a redaction made by audit_redact (the transaction says so) and changes nothing but
-- values turned into '[suprimido]'. Every redaction is itself recorded by the service ('redact').
CREATE FUNCTION audit_log_guard_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('inmoflujo.redaction', true), '') <> 'on'
     OR NEW.id <> OLD.id OR NEW.occurred_at <> OLD.occurred_at
     OR NEW.actor_id IS DISTINCT FROM OLD.actor_id OR NEW.request_id IS DISTINCT FROM OLD.request_id
     OR NEW.action <> OLD.action OR NEW.table_name <> OLD.table_name OR NEW.record_id <> OLD.record_id
     OR NEW.root_table <> OLD.root_table OR NEW.root_id IS DISTINCT FROM OLD.root_id
     OR NOT audit_is_redaction(OLD.before, NEW.before) OR NOT audit_is_redaction(OLD.after, NEW.after) THEN
    RAISE EXCEPTION 'audit_log is append-only: UPDATE refused' USING ERRCODE = 'AU002';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER audit_log_append_only ON audit_log;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE DELETE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_redaction_only BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_guard_update();
--> statement-breakpoint
-- The redaction of a suppression: in the log rows of the holder's records (`roots`: the client, their
-- reservations, their flows) and in every export's filters, every value holding one of `own_needles`;
-- in every comment's history, every value holding one of `global_needles` (their full name, RUT,
-- e-mail, phone). Needles are folded patterns (privacy_holds). Returns how many rows changed.
CREATE FUNCTION audit_redact(roots uuid[], own_needles text[], global_needles text[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  own_count integer;
  global_count integer;
  export_count integer;
BEGIN
  PERFORM set_config('inmoflujo.redaction', 'on', true);
  UPDATE audit_log SET before = audit_redacted(before, own_needles), after = audit_redacted(after, own_needles)
   WHERE root_id = ANY (roots)
     AND (audit_mentions(before, own_needles) OR audit_mentions(after, own_needles));
  GET DIAGNOSTICS own_count = ROW_COUNT;
  UPDATE audit_log SET before = audit_redacted(before, global_needles), after = audit_redacted(after, global_needles)
   WHERE table_name = 'flow_task_comments'
     AND (audit_mentions(before, global_needles) OR audit_mentions(after, global_needles));
  GET DIAGNOSTICS global_count = ROW_COUNT;
  -- An export's filters are a few words typed to find someone: any of their values is about them.
  UPDATE audit_log SET after = audit_redacted(after, own_needles)
   WHERE action = 'export' AND audit_mentions(after, own_needles);
  GET DIAGNOSTICS export_count = ROW_COUNT;
  PERFORM set_config('inmoflujo.redaction', '', true);
  RETURN own_count + global_count + export_count;
END $$;
