import type { z } from 'zod';
import { dec } from '../../../../shared/domain/decimal';
import { foldText } from '../../../../shared/domain/import-cells';
import { UNIT_KINDS, type UnitKind } from '../../../../shared/domain/stock';
import { errorMessage } from '../../../../shared/errors';
import { formatDate, santiagoDateOf } from '../../../../shared/format';
import { IMPORT_FIELDS, IMPORT_UNIT_KINDS } from '../../../../shared/schemas/imports';
import { priceRow, type UnitValues, unitFields } from '../../../../shared/schemas/stock';
import type { Executor } from '../../../db/client';
import { projects } from '../../../db/schema';
import { AppError } from '../../../http/app-error';
import * as stock from '../../stock/stock.service';
import { lockRowSnapshots } from '../imports.queries';
import {
  allSame,
  type ChangedRecord,
  fieldError,
  insertedRecord,
  type KindModule,
  type PlannedRow,
  type ReadRow,
  schemaErrors,
} from './kind';

/**
 * 'Unidades y precios' (decision 0041): one row, one unit of a project, by project + kind + number
 * (updated when the project has it, created otherwise), validated with the stock forms' own schema.
 * A list price that differs from the one in force on its date ('Precio vigente desde', blank: the
 * import's day) enters the price history through the stock service: after the last chunk, one new
 * price list per project and date naming the units whose price changed, as a list entered by hand.
 */

const FIELDS = IMPORT_FIELDS.units;
const UNIT_COLUMNS = [
  'kind',
  'number',
  'floor',
  'building',
  'typology',
  'orientation',
  'usableArea',
  'terraceArea',
  'totalArea',
] as const;
const OPTIONAL_COLUMNS = UNIT_COLUMNS.slice(2);

/** The file's word for a kind ('Departamento') → the stored kind ('apartment'). */
const KIND_OF = new Map<string, UnitKind>(
  IMPORT_UNIT_KINDS.map((label, index) => [label, UNIT_KINDS[index]!]),
);

/** The form's message for an amount the stock forms refuse (a negative area or price). */
function formMessage(schema: z.ZodType): string {
  const parsed = schema.safeParse('-1');
  return parsed.success ? '' : parsed.error.issues[0]!.message;
}

/** Areas and price a cell could not be read as: said with the stock forms' message for that field. */
const AMOUNT_MESSAGES: Record<string, string> = {
  usableArea: formMessage(unitFields.shape.usableArea),
  terraceArea: formMessage(unitFields.shape.terraceArea),
  totalArea: formMessage(unitFields.shape.totalArea),
  price: formMessage(priceRow.shape.price),
};

interface UnitPlan {
  projectId: string;
  kind: UnitKind;
  number: string;
  /** The unit updated (null: created). */
  id: string | null;
  version: number | null;
  /** Its fields; null when only its price changes. */
  values: UnitValues | null;
  /** A new price, from its effective date. */
  price: { effectiveDate: string; price: string } | null;
}

/** A price list pending until the last chunk is written: one per project and date. */
interface PendingList {
  projectId: string;
  effectiveDate: string;
  rows: stock.PriceInput[];
  rowNumber: number;
}

const unitKey = (projectId: string, kind: string, number: string) =>
  `${projectId}|${kind}|${number.trim().toLowerCase()}`;

/** The row's read errors, an amount said as the stock forms say it. */
function readErrors(row: ReadRow) {
  return row.errors.map((error) => {
    const field = FIELDS.find((candidate) => candidate.label === error.column);
    const message = field ? AMOUNT_MESSAGES[field.key] : undefined;
    return message ? { ...error, reason: message } : error;
  });
}

async function projectIdsByName(db: Executor): Promise<Map<string, string[]>> {
  const rows = await db.select({ id: projects.id, name: projects.name }).from(projects);
  const byName = new Map<string, string[]>();
  for (const project of rows) {
    const key = foldText(project.name);
    byName.set(key, [...(byName.get(key) ?? []), project.id]);
  }
  return byName;
}

export const unitsKind: KindModule<UnitPlan> = {
  kind: 'units',
  fields: FIELDS,
  keyField: 'number',
  chunkSize: { embedded: 200, postgres: 200 },

  keyOf(row) {
    const { projectName, kind, number } = row.values;
    if (typeof projectName !== 'string' || typeof kind !== 'string' || typeof number !== 'string')
      return undefined;
    return {
      key: `${foldText(projectName)}|${kind}|${number.trim().toLowerCase()}`,
      text: `${kind} ${number.trim()} (${projectName.trim()})`,
    };
  },

  async planBatch(db, rows, now) {
    const today = santiagoDateOf(now);
    const byName = await projectIdsByName(db);
    const projectOf = new Map<number, string>();
    const planned = new Map<number, PlannedRow<UnitPlan>>();
    for (const row of rows) {
      if (row.errors.length > 0) {
        planned.set(row.rowNumber, { rowNumber: row.rowNumber, action: 'error', errors: readErrors(row) });
        continue;
      }
      const name = row.values.projectName as string;
      const candidates = byName.get(foldText(name)) ?? [];
      if (candidates.length !== 1) {
        const reason =
          candidates.length === 0
            ? 'No hay un proyecto con este nombre'
            : 'Hay más de un proyecto con este nombre';
        planned.set(row.rowNumber, {
          rowNumber: row.rowNumber,
          action: 'error',
          errors: [fieldError(row, FIELDS, 'projectName', reason)],
        });
      } else projectOf.set(row.rowNumber, candidates[0]!);
    }
    // The units of the batch's projects with their prices on each date the rows price them.
    const projectIds = [...new Set(projectOf.values())];
    const dateOf = (row: ReadRow) => (row.values.priceDate as string | undefined) ?? today;
    const dates = [...new Set(rows.filter((row) => projectOf.has(row.rowNumber)).map(dateOf))];
    const unitsOn = new Map<string, Map<string, stock.ImportedUnitRow>>();
    for (const day of dates) {
      const numbers = rows
        .filter((row) => projectOf.has(row.rowNumber) && dateOf(row) === day)
        .map((row) => row.values.number as string);
      const found = await stock.listUnitsWithPricesOn(db, projectIds, numbers, day);
      unitsOn.set(day, new Map(found.map((unit) => [unitKey(unit.projectId, unit.kind, unit.number), unit])));
    }
    const takenDates = new Map<string, boolean>();
    const dateTaken = async (projectId: string, day: string) => {
      const key = `${projectId}|${day}`;
      if (!takenDates.has(key)) takenDates.set(key, await stock.priceListDateTaken(db, projectId, day));
      return takenDates.get(key)!;
    };

    const result: PlannedRow<UnitPlan>[] = [];
    for (const row of rows) {
      const done = planned.get(row.rowNumber);
      if (done) {
        result.push(done);
        continue;
      }
      const projectId = projectOf.get(row.rowNumber)!;
      const kind = KIND_OF.get(row.values.kind as string)!;
      const day = dateOf(row);
      const current = unitsOn.get(day)!.get(unitKey(projectId, kind, row.values.number as string));
      // A column left unmapped keeps what the unit has; a mapped blank cell clears an optional field.
      const input: Record<string, unknown> = { kind, number: row.values.number };
      for (const key of OPTIONAL_COLUMNS) {
        if (key in row.texts) input[key] = row.values[key] ?? null;
        else input[key] = current ? current[key] : null;
      }
      const parsed = unitFields.safeParse(input);
      const errors = parsed.success ? [] : schemaErrors(row, FIELDS, parsed.error);
      let price: string | null = null;
      if (row.values.price !== undefined) {
        const priced = priceRow.safeParse({ kind, number: row.values.number, price: row.values.price });
        if (priced.success) price = priced.data.price;
        else errors.push(...schemaErrors(row, FIELDS, priced.error));
      }
      const priceChanges = price !== null && (!current?.price || !dec(current.price).eq(dec(price)));
      if (priceChanges && (await dateTaken(projectId, day))) {
        errors.push(
          fieldError(
            row,
            FIELDS,
            'priceDate',
            errorMessage('PRICE_LIST_DATE_TAKEN', { date: formatDate(day) }),
          ),
        );
      }
      if (errors.length > 0 || !parsed.success) {
        result.push({ rowNumber: row.rowNumber, action: 'error', errors });
        continue;
      }
      const values = parsed.data;
      const newPrice = priceChanges ? { effectiveDate: day, price: price! } : null;
      if (!current) {
        result.push({
          rowNumber: row.rowNumber,
          action: 'create',
          errors: [],
          plan: { projectId, kind, number: values.number, id: null, version: null, values, price: newPrice },
        });
        continue;
      }
      const sameUnit = allSame(values, current as unknown as Record<string, unknown>, UNIT_COLUMNS);
      if (sameUnit && !newPrice) {
        result.push({ rowNumber: row.rowNumber, action: 'unchanged', errors: [] });
        continue;
      }
      result.push({
        rowNumber: row.rowNumber,
        action: 'update',
        errors: [],
        plan: {
          projectId,
          kind,
          number: values.number,
          id: current.id,
          version: current.version,
          values: sameUnit ? null : values,
          price: newPrice,
        },
      });
    }
    return result;
  },

  async applyBatch(tx, rows, ctx) {
    const records: ChangedRecord[] = [];
    const creates = rows.filter((row) => row.action === 'create' && row.plan);
    const byProject = new Map<string, PlannedRow<UnitPlan>[]>();
    for (const row of creates) {
      const projectRows = byProject.get(row.plan!.projectId) ?? [];
      projectRows.push(row);
      byProject.set(row.plan!.projectId, projectRows);
    }
    for (const [projectId, projectRows] of byProject) {
      const inserted = await stock.insertUnitsIn(
        tx,
        projectId,
        projectRows.map((row) => row.plan!.values!),
        ctx.actorId,
      );
      inserted.forEach((unit, index) => {
        records.push(insertedRecord('units', unit.id, projectRows[index]!.rowNumber));
      });
    }
    const updates = rows.filter((row) => row.action === 'update' && row.plan?.id && row.plan.values);
    const before = await lockRowSnapshots(
      tx,
      'units',
      updates.map((row) => row.plan!.id!),
    );
    for (const row of updates) {
      const plan = row.plan!;
      if (!(await stock.updateUnitIn(tx, plan.id!, plan.version!, plan.values!, ctx.actorId)))
        throw new AppError('STALE_VERSION');
      records.push({
        tableName: 'units',
        recordId: plan.id!,
        action: 'update',
        before: before.get(plan.id!) ?? null,
        rowNumber: row.rowNumber,
      });
    }
    // The new prices wait for the last chunk: one list per project and date (finish).
    if (!ctx.memo.priceLists) ctx.memo.priceLists = new Map<string, PendingList>();
    const pending = ctx.memo.priceLists as Map<string, PendingList>;
    for (const row of rows) {
      const plan = row.plan;
      if (!plan) continue;
      ctx.stockChanged.add(plan.projectId);
      if (!plan.price) continue;
      const key = `${plan.projectId}|${plan.price.effectiveDate}`;
      const list = pending.get(key) ?? {
        projectId: plan.projectId,
        effectiveDate: plan.price.effectiveDate,
        rows: [],
        rowNumber: row.rowNumber,
      };
      list.rows.push({ kind: plan.kind, number: plan.number, price: plan.price.price });
      pending.set(key, list);
    }
    return records;
  },

  async finish(tx, ctx) {
    const pending = (ctx.memo.priceLists as Map<string, PendingList> | undefined) ?? new Map();
    const records: ChangedRecord[] = [];
    for (const list of pending.values()) {
      const { priceListId } = await stock.applyPriceListIn(
        tx,
        list.projectId,
        {
          effectiveDate: list.effectiveDate,
          note: 'Importada desde Excel (Unidades y precios)',
          rows: list.rows,
        },
        ctx.actorId,
      );
      records.push(insertedRecord('price_lists', priceListId, list.rowNumber));
    }
    return records;
  },
};
