import { type SQL, sql } from 'drizzle-orm';

/*
 * An array as one parameter, for `column = any(…)`. Drizzle spreads a JavaScript array into one
 * parameter per element (`in ($1, $2, …)`): a batch's lookups of 100 keys were 100 parameters each,
 * built and bound one by one, much of an import's JavaScript. The literal is PostgreSQL's array syntax,
 * every element quoted (a backslash or a double quote escaped), so any text travels unchanged.
 */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** A text[] parameter: `where rut = any(${textArrayParam(ruts)})`. */
export function textArrayParam(values: readonly string[]): SQL {
  return sql`${arrayLiteral(values)}::text[]`;
}

/** A uuid[] parameter: `where id = any(${uuidArrayParam(ids)})`. */
export function uuidArrayParam(ids: readonly string[]): SQL {
  return sql`${arrayLiteral(ids)}::uuid[]`;
}
