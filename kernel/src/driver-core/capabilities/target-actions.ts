/**
 * The target actions capability: deleting or emptying a whole index or collection from the
 * side panel. Exists because each engine has its own requests for it, shown to the user before
 * they confirm by typing the name.
 */
import type {
  TargetAction,
  TargetActionId
} from '../../../../contracts/edit-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';

export interface TargetActions {
  /** What may be done to an index or collection, with the exact requests. */
  offered(target: string): TargetAction[];
  /** Runs one; the caller has checked the name the user typed. Rejects with EngineError. */
  run(
    target: string,
    action: TargetActionId,
    signal: AbortSignal
  ): Promise<{ request: SentRequest; message: string }>;
}
