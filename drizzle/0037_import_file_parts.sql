CREATE TABLE "import_run_file_parts" (
	"run_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "import_run_file_parts_run_id_part_pk" PRIMARY KEY("run_id","part")
);
--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "file_parts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "import_run_file_parts" ADD CONSTRAINT "import_run_file_parts_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each run's file so far becomes its one part (the file's bytes move; nothing is re-encoded).
INSERT INTO "import_run_file_parts" ("run_id", "part", "bytes") SELECT "id", 0, "file_bytes" FROM "import_runs";--> statement-breakpoint
ALTER TABLE "import_runs" DROP COLUMN "file_bytes";