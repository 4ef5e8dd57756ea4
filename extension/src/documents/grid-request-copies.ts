import { copyText } from '../datagrid/clipboard';
import { confirmDone, hint } from './confirmations';
import { copyViewAsPython } from './copy-view-as-python';
import type { DocumentGridModel } from './document-grid-model';

/**
 * The request a grid tab sends for its view, copied as a console cell, a curl command or Python
 * for the engine's official client, or inserted into the notebook as a cell.
 */
export class GridRequestCopies {
  constructor(
    private readonly model: DocumentGridModel,
    private readonly insertCell: (text: string) => Promise<void>,
    private readonly showError: (message: string) => void
  ) {}

  /** "Copy as cell": the request this grid sends, as a console cell. */
  asCell(): Promise<void> {
    return this.copy(
      this.model.cellText(),
      'Copied the request as a console cell.'
    );
  }

  /** "Copy as curl": the request as a curl command. */
  asCurl(): Promise<void> {
    return this.copy(
      this.model.opened.request.curl,
      'Copied the request as a curl command.'
    );
  }

  /** "Copy as Python": the request as Python code for the engine's official client. */
  asPython(): Promise<void> {
    const { connection, request } = this.model.opened;
    return copyViewAsPython(this.model.client, {
      connection,
      cell: request.cell
    });
  }

  private async copy(text: string, done: string): Promise<void> {
    try {
      await copyText(text);
      confirmDone(done);
    } catch (err) {
      hint((err as Error).message);
    }
  }

  /** "Insert into notebook": the request as a cell below the active cell of the notebook. */
  async insert(): Promise<void> {
    try {
      await this.insertCell(this.model.cellText());
    } catch (err) {
      this.showError((err as Error).message);
    }
  }
}
