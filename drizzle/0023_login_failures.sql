-- Issue 29 (several instances, no private state): failed sign-ins are counted in the database, where
-- every server instance sees them, instead of in each process's memory (decision 0028). One row per
-- failure and counter; the key is a hash of the counter (e-mail + client, client, account). Not
-- audited: a failed sign-in changes no business data. Each sign-in deletes the rows older than the
-- longest window (an hour with the default settings), so the table holds only recent failures.
CREATE TABLE "login_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failures_key_idx" ON "login_failures" USING btree ("key","failed_at");--> statement-breakpoint
CREATE INDEX "login_failures_failed_at_idx" ON "login_failures" USING btree ("failed_at");
