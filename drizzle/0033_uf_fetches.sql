CREATE TABLE "uf_fetches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"failure" text,
	CONSTRAINT "uf_fetches_status" CHECK ("uf_fetches"."status" in ('saved', 'failed')),
	CONSTRAINT "uf_fetches_failure" CHECK (("uf_fetches"."status" = 'failed') = ("uf_fetches"."failure" is not null))
);
--> statement-breakpoint
CREATE INDEX "uf_fetches_attempted_idx" ON "uf_fetches" USING btree ("attempted_at");