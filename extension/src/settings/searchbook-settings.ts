import { Signal } from '@lumino/signaling';
import {
  DEFAULT_BLOCK_SIZE,
  MAX_BLOCK_SIZE
} from '@searchbook/contracts/panel-protocol';
import { MAX_OUTPUT_ROWS } from '@searchbook/contracts/output-rows';
import { z } from 'zod';

/** The dashboard's reading interval when no setting says otherwise: what the engines offer. */
const DEFAULT_DASHBOARD_SECONDS = 2;

/**
 * What JupyterLab's Settings Editor sets for searchbook (schema/settings.json). A value the
 * registry hands over that does not fit falls back to its default, field by field.
 */
export const SearchbookSettingsSchema = z.object({
  rowsPerBlock: z
    .number()
    .int()
    .min(10)
    .max(MAX_BLOCK_SIZE)
    .catch(DEFAULT_BLOCK_SIZE),
  dashboardRefreshSeconds: z
    .number()
    .min(1)
    .max(3600)
    .catch(DEFAULT_DASHBOARD_SECONDS),
  matchCaseByDefault: z.boolean().catch(false),
  /** Null: each kernel keeps its own cap (`SEARCHBOOK_MAX_ROWS`, else its default). */
  rowsKeptInOutputs: z
    .number()
    .int()
    .min(1)
    .max(MAX_OUTPUT_ROWS)
    .nullable()
    .catch(null)
});

export type SearchbookSettings = z.infer<typeof SearchbookSettingsSchema>;

/** The settings in force: the defaults until the settings registry has answered. */
class SettingsInForce {
  readonly changed = new Signal<this, SearchbookSettings>(this);
  private value: SearchbookSettings = SearchbookSettingsSchema.parse({});

  get current(): SearchbookSettings {
    return this.value;
  }

  /** The registry's composite (user values over the schema's defaults). */
  update(composite: unknown): void {
    this.value = SearchbookSettingsSchema.parse(
      typeof composite === 'object' && composite !== null ? composite : {}
    );
    this.changed.emit(this.value);
  }
}

/** Read where a grid opens, a filter bar starts or a dashboard schedules its next reading. */
export const searchbookSettings = new SettingsInForce();
