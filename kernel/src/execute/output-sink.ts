import type { MimeBundle } from '../render/bundle';

/** Where a running cell puts its outputs (display_data messages, in order). */
export interface OutputSink {
  /** With a display id, the output can later be replaced in place by update(). */
  display(bundle: MimeBundle, displayId?: string): Promise<void>;
  /** Replaces the output shown with `displayId` (update_display_data): progress that updates in place. */
  update?(bundle: MimeBundle, displayId: string): Promise<void>;
  /** Asks the user for a secret or a value (stdin input_request). */
  input(prompt: string, password: boolean): Promise<string>;
  /** Whether the request allows input (execute_request's allow_stdin); input() rejects otherwise. */
  readonly canAsk: boolean;
}
