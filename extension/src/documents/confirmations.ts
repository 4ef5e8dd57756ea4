import { Notification } from '@jupyterlab/apputils';

/**
 * How long a confirmation stays on screen. JupyterLab's notification centre (the bell in the
 * status bar) keeps it afterwards, so one missed can still be read.
 */
const SHOWN_MS = 5000;

/**
 * Says that something the user asked for is done ("Copied the request as a curl command."),
 * as a JupyterLab notification that closes by itself: a grid's status line keeps its row count
 * and last request, which a confirmation must not replace.
 */
export function confirmDone(
  text: string,
  actions: Notification.IAction[] = []
): void {
  Notification.success(text, { autoClose: SHOWN_MS, actions });
}

/** A hint about what to do first ("Nothing selected: …"): transient too, never in a status line. */
export function hint(text: string): void {
  Notification.warning(text, { autoClose: SHOWN_MS });
}
