/**
 * The text a cell's iopub messages show a reader, read through JupyterLab's own message types
 * and guards, so the wire tests ask "what did the cell show" in one way.
 */
import type { IopubMessage } from './kernel-client';
import { KernelMessage } from './kernel-messages';

/** A display's mime bundle, as JupyterLab types it. */
export type MimeBundle = KernelMessage.IDisplayDataMsg['content']['data'];

/** The bundles a cell displayed (its display_data), in order. */
export const displays = (iopub: IopubMessage[]): MimeBundle[] =>
  iopub.filter(KernelMessage.isDisplayDataMsg).map(m => m.content.data);

/** The bundles a cell displayed or put in place of one (update_display_data), in order. */
export const displaysAndUpdates = (iopub: IopubMessage[]): MimeBundle[] =>
  iopub
    .filter(
      m =>
        KernelMessage.isDisplayDataMsg(m) ||
        KernelMessage.isUpdateDisplayDataMsg(m)
    )
    .map(m => m.content.data);

/**
 * A bundle's text/plain, undefined when it has none. The kernel writes every text as one string
 * (nbformat also allows a list of lines); anything else is a broken output, so it throws.
 */
export function plainText(bundle: MimeBundle): string | undefined {
  const text = bundle['text/plain'];
  if (text !== undefined && typeof text !== 'string') {
    throw new Error(`text/plain is not one string: ${JSON.stringify(text)}`);
  }
  return text;
}

/** What one message shows as text: a display's or result's text/plain, a stream's text, an error's value. */
export function textOf(message: IopubMessage): string | undefined {
  if (
    KernelMessage.isDisplayDataMsg(message) ||
    KernelMessage.isUpdateDisplayDataMsg(message) ||
    KernelMessage.isExecuteResultMsg(message)
  ) {
    return plainText(message.content.data);
  }
  if (KernelMessage.isStreamMsg(message)) {
    return message.content.text;
  }
  if (KernelMessage.isErrorMsg(message)) {
    return message.content.evalue;
  }
  return undefined;
}
