-- Decision 0045 (issue 32): an audited table's document and key functions are declared STABLE, which
-- is what they are (to_jsonb and a date's or a timestamp's text depend on the session's settings).
-- Declared IMMUTABLE, a body that is only STABLE is never inlined: the statement trigger of 0036
-- called audit_<t>_doc once per inserted row as a function of its own (an import's 125,000 task rows
-- were 125,000 SQL-function calls, 0.9 s of the embedded apply). Declared STABLE, the planner inlines
-- them into the trigger's INSERT ... SELECT. The documents and keys written are the same.
CREATE FUNCTION audit_declare_stable(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER FUNCTION %I(%I) STABLE', 'audit_' || target || '_doc', target);
  EXECUTE format('ALTER FUNCTION %I(%I) STABLE', 'audit_' || target || '_key', target);
END $$;
--> statement-breakpoint
-- audit_install (0036) ends with audit_install_triggers(target); that name now declares the functions
-- audit_install has just made STABLE before installing the triggers as 0036 did.
ALTER FUNCTION audit_install_triggers(text) RENAME TO audit_install_log_triggers;
--> statement-breakpoint
CREATE FUNCTION audit_install_triggers(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM audit_declare_stable(target);
  PERFORM audit_install_log_triggers(target);
END $$;
--> statement-breakpoint
SELECT audit_declare_stable(table_name) FROM audit_tables ORDER BY table_name;
