/**
 * The writes capability: saving the grid's edits, each change one request of the engine's
 * own, values typed by the mapping or schema first. Exists because a save must refuse a bad
 * value before anything is sent, whatever the engine; driver-core/edit-runner.ts builds it from
 * the engine's write primitives.
 */
import type {
  ChangeResult,
  EditRefusal,
  PlannedRequest,
  RowChange
} from '../../../../contracts/edit-protocol';
import type { Column } from '../../../../contracts/columns';

/** The grid an edit comes from: its target, and the columns it has shown (which are read-only, which hold JSON). */
export interface EditedGrid {
  target: string;
  columns: ReadonlyMap<string, Column>;
}

export interface DocumentWrites {
  /** The requests a save would send, or the refusals that stop it; nothing is written. */
  plan(
    grid: EditedGrid,
    changes: RowChange[],
    signal: AbortSignal
  ): Promise<{ requests: PlannedRequest[]; refusals: EditRefusal[] }>;
  /** Sends each change (all of them, whatever one answers); no result when refused. */
  save(
    grid: EditedGrid,
    changes: RowChange[],
    signal: AbortSignal
  ): Promise<{ results: ChangeResult[]; refusals: EditRefusal[] }>;
}
