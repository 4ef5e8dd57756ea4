export interface ToolbarActions {
  /** Absent when there are no rows to copy. */
  copy?(format: 'tsv' | 'json'): Promise<unknown>;
  /** Shows or hides the raw response; returns whether it is now shown. */
  toggleRaw(): boolean;
}

/** A small JupyterLab-styled button of the outputs. */
export function button(
  label: string,
  title: string,
  onClick: (button: HTMLButtonElement) => void
): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'jp-Button searchbook-Toolbar-button';
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', () => onClick(b));
  return b;
}

/** Copy and raw-JSON buttons above a grid. */
export function toolbar(actions: ToolbarActions): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'searchbook-Toolbar';
  const flash = (b: HTMLButtonElement, text: string): void => {
    const label = b.textContent;
    b.textContent = text;
    setTimeout(() => (b.textContent = label), 1200);
  };
  const copy = actions.copy?.bind(actions);
  if (copy) {
    bar.append(
      button(
        'Copy TSV',
        'Copy the selected cells (or every row) as tab-separated values',
        b =>
          void copy('tsv').then(
            () => flash(b, 'Copied'),
            () => flash(b, 'Not copied')
          )
      ),
      button(
        'Copy JSON',
        'Copy the selected cells (or every row) as a JSON array of objects',
        b =>
          void copy('json').then(
            () => flash(b, 'Copied'),
            () => flash(b, 'Not copied')
          )
      )
    );
  }
  bar.append(
    button('Raw JSON', 'Show the response as the engine sent it', b => {
      const shown = actions.toggleRaw();
      b.setAttribute('aria-pressed', String(shown));
      b.classList.toggle('searchbook-mod-pressed', shown);
    })
  );
  return bar;
}
