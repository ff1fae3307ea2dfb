import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { closedShape } from '../../shared/schemas/common';
import { isCleanLine, isCleanText, UNCLEAN_LINE_MESSAGE } from '../../shared/text-safety';
import { queryRows } from '../db/client';
import { errorOf, loginAs, useTestApp } from '../test/app';
import { createReservation } from '../test/builders';

/**
 * Issue 52: every free-text field of every route's request (path parameters, query, body) carries
 * the shared clean-text rule (`line` or `lines` of `shared/schemas/common.ts`, decision 0058). The
 * walk reads the zod schemas the routes registered, so a field added later without the rule fails here.
 */

const CLEAN_RULES = new Set<unknown>([isCleanLine, isCleanText, closedShape]);

interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; fn?: unknown; format?: string } } }[];
  format?: string;
  [key: string]: unknown;
}

function defOf(schema: unknown): Def | null {
  const internals = (schema as { _zod?: { def?: Def } } | null)?._zod;
  return internals?.def ?? null;
}

/** Why a string schema is fine, or null when it is free text without the rule. */
function stringVerdict(def: Def): string | null {
  if (def.format) return `format ${def.format}`;
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def;
    if (checkDef.check === 'custom' && CLEAN_RULES.has(checkDef.fn)) return 'clean';
    if (checkDef.check === 'string_format') return `format ${checkDef.format}`;
  }
  return null;
}

/** The paths of the string schemas under `schema` that take free text without the rule. */
function uncleanFields(schema: unknown, path = ''): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, at: string) => {
    const def = defOf(node);
    if (!def || seen.has(node)) return;
    seen.add(node);
    const child = (key: string, value: unknown) => visit(value, at ? `${at}.${key}` : key);
    switch (def.type) {
      case 'string':
        if (stringVerdict(def) === null) found.push(at || '(todo)');
        return;
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) child(key, value);
        if (def.catchall) child('*', def.catchall);
        return;
      case 'array':
        child('[]', def.element);
        return;
      case 'set':
        child('[]', def.valueType);
        return;
      case 'record':
      case 'map':
        child('(clave)', def.keyType);
        child('*', def.valueType);
        return;
      case 'tuple':
        (def.items as unknown[]).forEach((item, index) => {
          child(String(index), item);
        });
        if (def.rest) child('*', def.rest);
        return;
      case 'union':
        for (const option of def.options as unknown[]) visit(option, at);
        return;
      case 'intersection':
        visit(def.left, at);
        visit(def.right, at);
        return;
      case 'pipe':
        visit(def.in, at);
        visit(def.out, at);
        return;
      case 'lazy':
        visit((def.getter as () => unknown)(), at);
        return;
      default:
        // optional, nullable, default, prefault, catch, readonly, nonoptional: the wrapped schema.
        if (def.innerType) visit(def.innerType, at);
    }
  };
  visit(schema, path);
  return found;
}

describe('free-text fields of every request', () => {
  const ctx = useTestApp();

  it('all carry the shared clean-text rule', () => {
    const unclean: string[] = [];
    let strings = 0;
    for (const route of ctx.app.registeredRoutes) {
      if (!route.url.startsWith('/api/') || route.method === 'HEAD') continue;
      for (const [part, schema] of Object.entries(route.requestSchemas)) {
        if (!schema) continue;
        for (const field of uncleanFields(schema, part))
          unclean.push(`${route.method} ${route.url} ${field}`);
      }
      strings++;
    }
    expect(strings).toBeGreaterThan(100);
    expect(unclean).toEqual([]);
  });
});

describe('the walk itself', () => {
  it('finds a bare string anywhere, and passes the rule, formats and closed shapes', async () => {
    const { z } = await import('zod');
    const { line, lines, optionalText, requiredNote, rut, isoDate, amount, uuid } = await import(
      '../../shared/schemas/common'
    );
    expect(
      uncleanFields(
        z.object({
          name: z.string(),
          tags: z.array(z.string().max(3)),
          nested: z.object({ deep: z.union([z.number(), z.string().optional()]) }).nullish(),
          transformed: z.string().transform((value) => value.length),
        }),
        'body',
      ),
    ).toEqual(['body.name', 'body.tags.[]', 'body.nested.deep', 'body.transformed']);
    expect(
      uncleanFields(
        z.object({
          a: line(),
          b: lines().max(10),
          c: optionalText(),
          d: requiredNote('x'),
          e: rut(),
          f: isoDate(),
          g: amount(),
          h: uuid(),
          i: z.email(),
          j: z.string().regex(/^\d+$/),
          k: z.enum(['x']),
        }),
      ),
    ).toEqual([]);
  });
});

describe('text others will see is refused with its Spanish message, and nothing is written', () => {
  const ctx = useTestApp();
  const rowsOf = async (table: 'brokers' | 'profiles' | 'documents') =>
    (await queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!
      .n;

  it('a broker named with a right-to-left override, a user with CR LF in the name, a document named to look like a PDF', async () => {
    const admin = await loginAs(ctx);
    const brokersBefore = await rowsOf('brokers');
    const broker = await admin.post('/api/brokers', {
      rut: '76.543.210-3',
      name: 'Romero\u202e& Asociados',
      businessName: 'Romero y Asociados SpA',
    });
    expect(broker.statusCode).toBe(400);
    expect(errorOf(broker).fields).toMatchObject({ name: UNCLEAN_LINE_MESSAGE });
    expect(await rowsOf('brokers')).toBe(brokersBefore);

    const usersBefore = await rowsOf('profiles');
    const user = await admin.post('/api/settings/users', {
      email: 'ana.crlf@inmoflujo.test',
      firstName: 'Ana\r\nMaría',
      lastName: 'Soto',
      position: 'Ejecutiva',
      userType: 'Vendedor',
      password: 'una-clave-larga-1',
      isSeller: true,
    });
    expect(user.statusCode).toBe(400);
    expect(errorOf(user).fields).toMatchObject({ firstName: UNCLEAN_LINE_MESSAGE });
    expect(await rowsOf('profiles')).toBe(usersBefore);

    const reservation = await createReservation(ctx.db);
    const [type] = await queryRows<{ id: string }>(ctx.db, sql`select id from document_types limit 1`);
    const name = encodeURIComponent('factura\u202efdp.exe');
    const document = await admin.post(
      `/api/reservations/${reservation.id}/documents?typeId=${type!.id}&fileName=${name}`,
      Buffer.from('%PDF-1.4\n'),
      { 'content-type': 'application/octet-stream' },
    );
    expect(document.statusCode).toBe(400);
    expect(errorOf(document).fields).toMatchObject({ fileName: UNCLEAN_LINE_MESSAGE });
    expect(await rowsOf('documents')).toBe(0);
  });
});
