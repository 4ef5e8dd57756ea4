import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import {
  EXPORT_FORMATS,
  type ExportFormatName
} from '@searchbook/contracts/export-formats';

/** What the user chose in the export dialog. */
export interface ExportChoice {
  file: string;
  format: ExportFormatName;
  /** Undefined for whole documents. */
  fields?: string[];
  overwrite: boolean;
}

const EXTENSION = /\.(jsonl|csv|json)$/i;

/**
 * The dialog's form: file, format, fields, overwrite. Labelled controls (File, Format, Fields,
 * Replace an existing file), so a screen reader and a test find them by name.
 */
class ExportForm extends Widget {
  private readonly file = document.createElement('input');
  private readonly format = document.createElement('select');
  private readonly fields = document.createElement('input');
  private readonly overwrite = document.createElement('input');

  constructor(target: string, what: string) {
    super();
    this.addClass('searchbook-ExportForm');
    const about = document.createElement('p');
    about.textContent = what;
    this.file.value = `${target.replace(/[^\w.-]+/g, '_')}.jsonl`;
    this.format.append(...EXPORT_FORMATS.map(f => new Option(f, f)));
    // The file's extension follows the format while the user has not made it something else.
    this.format.addEventListener('change', () => {
      if (EXTENSION.test(this.file.value)) {
        this.file.value = this.file.value.replace(
          EXTENSION,
          `.${this.format.value}`
        );
      }
    });
    this.fields.placeholder = 'every field; or name,price,address.city';
    this.overwrite.type = 'checkbox';
    const where = document.createElement('p');
    where.className = 'searchbook-ExportForm-note';
    where.textContent =
      "A relative name is written in the notebook's directory (the kernel's working directory), as %export does; until it is complete, it is written to a temporary <name>.searchbook-<random>.partial file beside it.";
    this.node.append(
      about,
      labelled('File', this.file),
      labelled('Format', this.format),
      labelled('Fields', this.fields),
      labelled('Replace an existing file', this.overwrite),
      where
    );
  }

  getValue(): ExportChoice {
    const fields = this.fields.value
      .split(',')
      .map(f => f.trim())
      .filter(f => f !== '');
    return {
      file: this.file.value.trim(),
      format: this.format.value as ExportFormatName,
      ...(fields.length > 0 ? { fields } : {}),
      overwrite: this.overwrite.checked
    };
  }
}

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'searchbook-ExportForm-row';
  const name = document.createElement('span');
  name.textContent = text;
  label.append(name, control);
  return label;
}

/** Asks where and how to export `target`; undefined when the user cancelled. */
export async function askExport(
  target: string,
  what: string
): Promise<ExportChoice | undefined> {
  const result = await showDialog({
    title: `Export ${target}`,
    body: new ExportForm(target, what),
    buttons: [Dialog.cancelButton(), Dialog.okButton({ label: 'Export' })]
  });
  return result.button.accept && result.value ? result.value : undefined;
}
