-- Decision 0054 (issue 54): the ledger of suppressions (no personal data: the request, when, a salted
-- hash of the holder's RUT), kept in the database and beside the backups, so a restore replays them;
-- and when each suppression's bytes were scrubbed from the embedded database's files and log.
CREATE TABLE "suppression_ledger" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"received_date" date NOT NULL,
	"suppressed_at" timestamp with time zone NOT NULL,
	"rut_salt" text NOT NULL,
	"rut_hash" text NOT NULL,
	"scrubbed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "suppression_ledger_pending_idx" ON "suppression_ledger" USING btree ("suppressed_at") WHERE "suppression_ledger"."scrubbed_at" is null;
--> statement-breakpoint
-- Decision 0055: how long an import's uploaded file and the .eml copies of notices are kept.
ALTER TABLE "privacy_settings" ADD COLUMN "import_file_days" integer DEFAULT 30 NOT NULL;
--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD COLUMN "mail_copy_days" integer DEFAULT 30 NOT NULL;
--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_import_file_days" CHECK ("privacy_settings"."import_file_days" between 1 and 3650);
--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_mail_copy_days" CHECK ("privacy_settings"."mail_copy_days" between 1 and 3650);
