import { Widget } from '@lumino/widgets';
import { detailText } from './cell-text';

export interface OpenedValue {
  column: string;
  /** Position in the response, 1-based as the row header shows it (or the header's text: `new`). */
  row: number | string;
  value: unknown;
  cut: boolean;
}

/**
 * The whole value of one cell, below the grid: pretty JSON for arrays and objects, the text
 * itself otherwise. Filled with textContent only, so a document's markup shows as characters.
 */
export class ValueView extends Widget {
  private readonly heading: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly body: HTMLPreElement;

  constructor() {
    super();
    this.addClass('searchbook-ValueView');
    const bar = document.createElement('div');
    bar.className = 'searchbook-ValueView-bar';
    this.heading = document.createElement('span');
    this.heading.className = 'searchbook-ValueView-title';
    const close = document.createElement('button');
    close.className = 'searchbook-ValueView-close jp-Button';
    close.type = 'button';
    close.textContent = 'Close';
    close.title = 'Close the value view (Escape)';
    close.addEventListener('click', () => this.hide());
    bar.append(this.heading, close);
    this.notice = document.createElement('div');
    this.notice.className = 'searchbook-ValueView-notice';
    this.body = document.createElement('pre');
    this.body.className = 'searchbook-ValueView-body';
    this.node.append(bar, this.notice, this.body);
    this.hide();
  }

  open(opened: OpenedValue): void {
    this.heading.textContent = `${opened.column} · row ${opened.row}`;
    this.notice.textContent = opened.cut
      ? 'This value was cut to keep the notebook small; it ends in "..." and is not the whole value.'
      : '';
    this.notice.hidden = !opened.cut;
    this.body.textContent = detailText(opened.value);
    this.show();
  }
}
