-- Decision 0061 (issue 56): roles as data. The office's grants and withdrawals of the catalogue's
-- grantable actions (shared/permissions.ts), one row per action and user type that differs from the
-- default; audited like every table.
CREATE TABLE "permission_grants" (
	"action" text NOT NULL,
	"user_type" text NOT NULL,
	"granted" boolean NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permission_grants_action_user_type_pk" PRIMARY KEY("action","user_type")
);
--> statement-breakpoint
ALTER TABLE "permission_grants" ADD CONSTRAINT "permission_grants_changed_by_profiles_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
SELECT audit_install('permission_grants', '{action,user_type}', 'permission_grants', 'null::uuid');
