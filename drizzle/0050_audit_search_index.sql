-- Decision 0076 (issue 61): the Auditoría's text search through an index. The values of a change
-- (not the column names), before and after, as one text folded as the search folds its words
-- (lower case, no accents), JSON-escaped as the search escapes them. Immutable, so it can be
-- indexed. PL/pgSQL, so it is not inlined and its cost stands: decoding a row's values is dear, and
-- the planner, told so, looks a word up in the index instead of decoding the rows one by one.
CREATE OR REPLACE FUNCTION audit_search_text(before jsonb, after jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1000 AS $$
BEGIN
  RETURN lower(translate(
    jsonb_path_query_array(coalesce(before, '{}'::jsonb), '$.*')::text || ' ' ||
    jsonb_path_query_array(coalesce(after, '{}'::jsonb), '$.*')::text,
    'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'));
END
$$;
--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin (audit_search_text("before", "after") gin_trgm_ops);
