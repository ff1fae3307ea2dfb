import type { Executor } from '../../db/client';
import * as queries from './dashboard.queries';

/**
 * The dashboard's bars for projects with an inventory, kept per instance by each project's stock
 * version (decision 0032's stamp, as Disponibilidad's kept grids): counting every apartment's
 * status at once read every unit, live reservation and sale flow (~0.7–1.6 s for 122,000
 * apartments); now only the projects whose version changed since this instance last counted them
 * are counted again. The version is read before the counts, so a change committed in between is
 * counted now and again at the next look (DESIGN §14: invalidated by the database, never by this
 * instance's requests).
 */
export class InventoryCounts {
  private readonly counted = new Map<string, { stamp: string; count: queries.InventoryCountRow | null }>();

  /** Each project's apartments and available ones (null: no inventory), by project id. */
  async of(
    db: Executor,
    projects: readonly { id: string; stockVersion: string }[],
  ): Promise<Map<string, queries.InventoryCountRow | null>> {
    const stale = projects.filter((project) => this.counted.get(project.id)?.stamp !== project.stockVersion);
    if (stale.length > 0) {
      const counts = new Map(
        (
          await queries.listInventoryCounts(
            db,
            stale.map((project) => project.id),
          )
        ).map((row) => [row.projectId, row]),
      );
      for (const project of stale)
        this.counted.set(project.id, { stamp: project.stockVersion, count: counts.get(project.id) ?? null });
    }
    // Projects deleted since they were counted are forgotten.
    const ids = new Set(projects.map((project) => project.id));
    for (const id of this.counted.keys()) if (!ids.has(id)) this.counted.delete(id);
    return new Map(projects.map((project) => [project.id, this.counted.get(project.id)!.count]));
  }
}
