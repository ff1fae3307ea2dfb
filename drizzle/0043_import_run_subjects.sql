CREATE TABLE "import_run_subjects" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"hashes" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_run_subjects" ADD CONSTRAINT "import_run_subjects_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;