import type { MimeBundle } from '../render/bundle';

/** Where a running cell puts its outputs (display_data messages, in order). */
export interface OutputSink {
  display(bundle: MimeBundle): Promise<void>;
  /** Asks the user for a secret or a value (stdin input_request). */
  input(prompt: string, password: boolean): Promise<string>;
  /** Whether the request allows input (execute_request's allow_stdin); input() rejects otherwise. */
  readonly canAsk: boolean;
}
