import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import {
  TYPED_SECRET_MIME,
  TypedSecretPayloadSchema,
  typedSecretWords
} from '@searchbook/contracts/mime-types';
import { button } from './toolbar';

/** Bubbles from the button to the plugin that edits the cell (see ../index.ts). */
export const REMOVE_SECRET_EVENT = 'searchbook-remove-secret';
export const REMOVE_SECRET_COMMAND = 'searchbook:remove-typed-secrets';

/** A refused `%connect` whose secret is still in the cell: says so and offers to remove it. */
export class TypedSecretOutput extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('searchbook-TypedSecret');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this.node.replaceChildren();
    const parsed = TypedSecretPayloadSchema.safeParse(
      model.data[TYPED_SECRET_MIME]
    );
    const kind = parsed.success ? parsed.data.kind : undefined;
    const what = parsed.success
      ? typedSecretWords(parsed.data.option, kind)
      : 'secret';
    const text = document.createElement('span');
    text.textContent = `The ${what} typed into this %connect line is still in this cell, and is saved with the notebook, until you remove it.`;
    const remove = button(
      'Remove it from the cell',
      kind?.removeTitle ??
        'Deletes the typed password or key from the %connect line; run the cell again and searchbook asks for it',
      b => {
        b.dispatchEvent(
          new CustomEvent(REMOVE_SECRET_EVENT, { bubbles: true })
        );
        b.disabled = true;
        b.textContent = 'Removed from the cell';
      }
    );
    this.node.append(text, remove);
  }
}
