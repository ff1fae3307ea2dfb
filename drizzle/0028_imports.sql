CREATE TABLE "import_mappings" (
	"kind" text PRIMARY KEY NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_run_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_run_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"row_number" integer NOT NULL,
	CONSTRAINT "import_run_records_action_check" CHECK ("import_run_records"."action" in ('insert', 'update'))
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"file_bytes" "bytea" NOT NULL,
	"sheet_name" text,
	"mapping" jsonb,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"only_valid_rows" boolean DEFAULT false NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"unchanged_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"failure" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"undone_by" uuid,
	CONSTRAINT "import_runs_status_check" CHECK ("import_runs"."status" in ('uploaded', 'applying', 'applied', 'failed', 'cancelled', 'undone')),
	CONSTRAINT "import_runs_kind_check" CHECK ("import_runs"."kind" in ('clients', 'brokers', 'reservations', 'units'))
);
--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_run_records" ADD CONSTRAINT "import_run_records_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_undone_by_profiles_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_run_records_run_idx" ON "import_run_records" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "import_run_records_record_idx" ON "import_run_records" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "import_runs_newest_idx" ON "import_runs" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);