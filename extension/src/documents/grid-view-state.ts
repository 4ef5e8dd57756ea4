import { z } from 'zod';
import { GridViewSchema } from '@searchbook/contracts/panel-protocol';

/**
 * What a grid tab keeps across a page reload (JupyterLab's layout restorer stores it in its
 * state database and hands it back to the reopen command): which target of which connection,
 * in which kernel, and how it was viewed. Fields that come later are optional, so a state
 * saved by an older page still reopens.
 */
export const GridViewStateSchema = z.object({
  connection: z.string().min(1),
  target: z.string().min(1),
  /** The session path of the notebook or console whose kernel holds the connection. */
  session: z.string().optional(),
  /** The filter rows, their join, the raw filter, match case and the engine sort. */
  view: GridViewSchema.optional()
});
export type GridViewState = z.infer<typeof GridViewStateSchema>;

/** The restorer's name of a grid tab: one tab per connection and target. */
export function gridTabName(state: {
  connection: string;
  target: string;
}): string {
  return JSON.stringify([state.connection, state.target]);
}
