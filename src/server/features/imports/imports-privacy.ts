/**
 * The import runs' side of the holders' rights (issue 54, decision 0055), kept apart from the
 * pipeline: an uploaded file holds every person in it, the errors workbook is made from it, and the
 * undo snapshots hold a record's previous identity. On a suppression the runs that created or changed
 * the holder's records lose their stored file, their snapshots of the holder take the suppressed
 * values (an undo can never bring the person back), and a file name that names them is rewritten as
 * documents' are; the stored files that name them (their RUT or e-mail, hashed at upload: decision
 * 0062) are deleted too, whatever their run changed. Every stored file is deleted `import_file_days` after its upload (30 by default):
 * the run and what it changed stay.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { redactText } from '../../../shared/domain/privacy';
import { type Executor, queryRows } from '../../db/client';
import { holderSubjectKeys, namesAny } from './file-subjects';

/** A stored file's subjects: keyed hashes of the RUTs and e-mails it names (bytea: a Buffer on PostgreSQL). */
const subjectsRow = z.object({ runId: z.string(), salt: z.string(), hashes: z.instanceof(Uint8Array) });

function uuidList(ids: readonly string[]) {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;
}

/** On a suppression, in its transaction, after the client row took the suppressed values. */
export async function redactHolderRunsIn(
  tx: Executor,
  holder: { clientId: string; reservationIds: readonly string[]; needles: readonly string[] },
): Promise<{ files: number; names: number; snapshots: number }> {
  const recordIds = [holder.clientId, ...holder.reservationIds];
  const touched = await queryRows<{ id: string }>(
    tx,
    sql`select distinct run_id as id from import_run_records where record_id = any(${uuidList(recordIds)})`,
  );
  // And the stored files that name them, whether or not their run changed a record of theirs
  // (decision 0062): their RUTs and e-mails hashed under each run's salt, looked up in its subjects.
  const keys = holderSubjectKeys(holder.needles);
  const named =
    keys.length === 0
      ? []
      : (
          await queryRows(
            tx,
            sql`select s.run_id as "runId", s.salt, s.hashes from import_run_subjects s
                 where exists (select 1 from import_run_file_parts p where p.run_id = s.run_id)`,
            subjectsRow,
          )
        ).filter((row) => namesAny({ salt: row.salt, hashes: Buffer.from(row.hashes) }, keys));
  const runIds = [...new Set([...touched.map((run) => run.id), ...named.map((row) => row.runId)])];
  let files = 0;
  if (runIds.length > 0) {
    const removed = await queryRows<{ runId: string }>(
      tx,
      sql`delete from import_run_file_parts where run_id = any(${uuidList(runIds)})
          returning run_id as "runId"`,
    );
    files = new Set(removed.map((row) => row.runId)).size;
    await tx.execute(sql`delete from import_run_subjects where run_id = any(${uuidList(runIds)})`);
  }
  let names = 0;
  if (holder.needles.length > 0) {
    for (const run of await queryRows<{ id: string; fileName: string }>(
      tx,
      sql`select id, file_name as "fileName" from import_runs`,
    )) {
      const redacted = redactText(run.fileName, holder.needles);
      if (!redacted.changed) continue;
      await tx.execute(sql`update import_runs set file_name = ${redacted.text} where id = ${run.id}`);
      names += 1;
    }
  }
  const clients = await queryRows<{ id: string }>(
    tx,
    sql`update import_run_records r
           set before = r.before || jsonb_build_object(
                 'rut', c.rut, 'first_name', c.first_name, 'last_name', c.last_name, 'birth_date', c.birth_date,
                 'phone', c.phone, 'email', c.email, 'suppressed_at', c.suppressed_at,
                 'suppressed_by', c.suppressed_by, 'deleted_at', c.deleted_at, 'deleted_by', c.deleted_by,
                 'restriction', null, 'restriction_reason', null)
          from clients c
         where c.id = ${holder.clientId} and r.record_id = c.id and r.table_name = 'clients' and r.before is not null
        returning r.id::text as id`,
  );
  const reservations =
    holder.reservationIds.length === 0
      ? []
      : await queryRows<{ id: string }>(
          tx,
          sql`update import_run_records r
                 set before = r.before || jsonb_build_object('client_search_text', x.client_search_text)
                from reservations x
               where x.id = any(${uuidList(holder.reservationIds)}) and r.record_id = x.id
                 and r.table_name = 'reservations' and r.before ? 'client_search_text'
              returning r.id::text as id`,
        );
  return { files, names, snapshots: clients.length + reservations.length };
}

/** Stored files uploaded more than `days` ago deleted (a run being applied keeps its own). */
export async function removeOldRunFiles(db: Executor, days: number, now: Date): Promise<number> {
  const rows = await queryRows<{ runId: string }>(
    db,
    sql`delete from import_run_file_parts p using import_runs r
         where r.id = p.run_id and r.status <> 'applying'
           and r.created_at < ${now.toISOString()}::timestamptz - make_interval(days => ${days})
        returning p.run_id as "runId"`,
  );
  const runIds = [...new Set(rows.map((row) => row.runId))];
  // Whom a file names goes with the file.
  if (runIds.length > 0)
    await db.execute(sql`delete from import_run_subjects where run_id = any(${uuidList(runIds)})`);
  return runIds.length;
}

/** Keeps whom a new run's file names (decision 0062), in the run's own transaction. */
export async function insertRunSubjectsIn(
  tx: Executor,
  runId: string,
  subjects: { salt: string; hashes: Buffer },
): Promise<void> {
  await tx.execute(
    sql`insert into import_run_subjects (run_id, salt, hashes) values (${runId}, ${subjects.salt}, ${subjects.hashes})`,
  );
}

/** Whether the run exists though its file does not (deleted by retention or a suppression). */
export async function runFileRemoved(db: Executor, runId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from import_runs r where r.id = ${runId}
           and (select count(*) from import_run_file_parts p where p.run_id = r.id) < r.file_parts`,
  );
  return rows.length > 0;
}
