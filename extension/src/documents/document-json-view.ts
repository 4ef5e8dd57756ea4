import { Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { GridReply } from '@searchbook/contracts/panel-protocol';
import { exactJson } from '@searchbook/contracts/exact-json';

export type WholeDocument = Extract<GridReply, { type: 'wholeDocument' }>;

/** What the dialog says above the JSON: the row's pending changes, which the stored document does not hold. */
export interface DocumentNotice {
  text: string;
}

/**
 * The body of the document dialog: the metadata as a list, a notice, and the document as
 * indented JSON, read-only (a `pre`) or editable (a `textarea`). Filled with textContent and
 * values only, so a document's markup shows as characters. Both open scrolled to the top.
 */
class DocumentBody extends Widget {
  readonly area: HTMLTextAreaElement | undefined;
  private readonly errors = document.createElement('ul');

  constructor(
    whole: WholeDocument,
    options: { text: string; editable: boolean; notice: string }
  ) {
    super();
    this.addClass('searchbook-DocumentView');
    const meta = document.createElement('dl');
    meta.className = 'searchbook-DocumentView-meta';
    meta.setAttribute('aria-label', 'Metadata');
    for (const { name, value } of whole.meta) {
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      detail.textContent = typeof value === 'string' ? value : exactJson(value);
      meta.append(term, detail);
    }
    const notice = document.createElement('p');
    notice.className = 'searchbook-DocumentView-notice';
    notice.textContent = options.notice;
    notice.hidden = options.notice === '';
    this.errors.className = 'searchbook-DocumentView-errors';
    this.errors.setAttribute('role', 'alert');
    this.errors.hidden = true;
    if (options.editable) {
      const area = document.createElement('textarea');
      area.className = 'searchbook-DocumentView-json';
      area.spellcheck = false;
      area.value = options.text;
      area.setAttribute('aria-label', 'Document (JSON)');
      // Focus would put the caret, and the scroll, at the end of the text.
      area.addEventListener(
        'focus',
        () => {
          area.setSelectionRange(0, 0);
          area.scrollTop = 0;
        },
        { once: true }
      );
      this.area = area;
      this.node.append(meta, notice, this.errors, area);
    } else {
      const pre = document.createElement('pre');
      pre.className = 'searchbook-DocumentView-json';
      pre.setAttribute('role', 'document');
      pre.setAttribute('aria-label', 'Document (JSON)');
      pre.tabIndex = 0;
      pre.textContent = options.text;
      this.node.append(meta, notice, pre);
    }
  }

  showErrors(problems: readonly string[]): void {
    this.errors.replaceChildren(
      ...problems.map(text => {
        const item = document.createElement('li');
        item.textContent = text;
        return item;
      })
    );
    this.errors.hidden = problems.length === 0;
  }

  getValue(): string {
    return this.area?.value ?? '';
  }
}

function title(whole: WholeDocument): string {
  return `Document ${whole.row.id} · ${whole.row.index}`;
}

/** The document's JSON as the dialogs show it. */
export function documentText(whole: WholeDocument): string {
  return exactJson(whole.document, 2);
}

/** Shows the document read-only; true when the user asked to edit it as JSON. */
export async function viewDocument(
  whole: WholeDocument,
  notice: string,
  editable: boolean
): Promise<boolean> {
  const body = new DocumentBody(whole, {
    text: documentText(whole),
    editable: false,
    notice
  });
  const dialog = new Dialog({
    title: title(whole),
    body,
    buttons: editable
      ? [
          Dialog.cancelButton({ label: 'Close' }),
          Dialog.okButton({ label: 'Edit as JSON' })
        ]
      : [Dialog.cancelButton({ label: 'Close' })],
    defaultButton: 0,
    focusNodeSelector: 'pre'
  });
  dialog.addClass('searchbook-DocumentDialog');
  const result = await dialog.launch();
  return editable && result.button.accept;
}

/**
 * The document as editable JSON, until the user applies text that `check` accepts (it answers
 * the problems, each saying what to write) or cancels; the accepted text, or undefined.
 * Ctrl-Enter (⌘-Enter) applies, Escape cancels.
 */
export async function editDocument(
  whole: WholeDocument,
  notice: string,
  check: (text: string) => Promise<readonly string[]>
): Promise<string | undefined> {
  let text = documentText(whole);
  let problems: readonly string[] = [];
  for (;;) {
    const body = new DocumentBody(whole, { text, editable: true, notice });
    body.showErrors(problems);
    const dialog = new Dialog({
      title: `Edit ${title(whole)}`,
      body,
      buttons: [
        Dialog.cancelButton(),
        Dialog.okButton({
          label: 'Apply',
          caption:
            'Make the changed fields pending changes of the row (Save sends them)'
        })
      ],
      defaultButton: 1,
      focusNodeSelector: 'textarea'
    });
    dialog.addClass('searchbook-DocumentDialog');
    body.area?.addEventListener('keydown', event => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        event.stopPropagation();
        dialog.resolve(1);
      }
    });
    const result = await dialog.launch();
    if (!result.button.accept) {
      return undefined;
    }
    text = result.value ?? body.getValue();
    problems = await check(text);
    if (problems.length === 0) {
      return text;
    }
  }
}
