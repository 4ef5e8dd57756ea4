import type { MimeBundle } from '../render/bundle';

/** Where a running cell puts its outputs (display_data messages, in order). */
export interface OutputSink {
  /** A new output; with `displayId`, one that `update` can later replace in place. */
  display(bundle: MimeBundle, displayId?: string): Promise<void>;
  /** Replaces the output shown under `displayId` (update_display_data). */
  update(displayId: string, bundle: MimeBundle): Promise<void>;
  /** Asks the user for a secret or a value (stdin input_request). */
  input(prompt: string, password: boolean): Promise<string>;
  /** Whether the request allows input (execute_request's allow_stdin); input() rejects otherwise. */
  readonly canAsk: boolean;
  /** Whether the frontend reads only the answers' values and shows none of them (execute metadata). */
  readonly valueOnly?: boolean;
  /** Whether the frontend reads an answer's bytes from a buffer of the message (execute metadata). */
  readonly answerAsBuffer?: boolean;
  /**
   * Sends a search answer's bytes as they arrived, before the kernel reads them (execute
   * metadata `answerEarly`): the frontend parses them while the kernel reads their shape.
   */
  readonly answerBytes?: (bytes: Buffer) => Promise<void>;
}
