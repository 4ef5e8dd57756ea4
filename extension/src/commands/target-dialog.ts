import { Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

let lists = 0;

/**
 * The body of "Open an index or collection": one text field offering the open targets as
 * `name · connection`, prefilled with the first, its text selected so typing replaces it.
 */
class TargetChoiceBody extends Widget {
  private readonly input = document.createElement('input');

  constructor(choices: readonly string[]) {
    super();
    this.addClass('searchbook-TargetChoice');
    const label = document.createElement('label');
    label.textContent = 'Index or collection · connection';
    const list = document.createElement('datalist');
    list.id = `searchbook-target-choices-${++lists}`;
    list.append(...choices.map(c => new Option(c, c)));
    this.input.type = 'text';
    this.input.placeholder = 'name · connection';
    this.input.spellcheck = false;
    this.input.autocomplete = 'off';
    this.input.setAttribute('list', list.id);
    this.input.value = choices[0] ?? '';
    this.input.addEventListener('focus', () => this.input.select(), {
      once: true
    });
    label.append(this.input);
    this.node.append(label, list);
  }

  getValue(): string {
    return this.input.value;
  }
}

/** Asks which target to open; the text typed or chosen, or undefined when cancelled. */
export async function askTarget(
  choices: readonly string[]
): Promise<string | undefined> {
  const result = await new Dialog({
    title: 'Open an index or collection',
    body: new TargetChoiceBody(choices),
    buttons: [Dialog.cancelButton(), Dialog.okButton({ label: 'Open' })],
    focusNodeSelector: 'input'
  }).launch();
  return result.button.accept && result.value ? result.value : undefined;
}
