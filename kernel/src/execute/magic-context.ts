import type { AnswerStore } from '../console/answers';
import type { ProfileServices } from '../connections/profile-services';
import type { ConnectionRegistry } from '../connections/connection-registry';
import type { VariableScope } from '../console/variables';
import type { OutputSink } from './output-sink';

/** What a magic may use while it runs: apart from the table of magics, so each magic's file needs only this. */
export interface MagicContext {
  scope: VariableScope;
  connections: ConnectionRegistry;
  sink: OutputSink;
  signal: AbortSignal;
  profiles: ProfileServices;
  /** The answers `%name` names. */
  answers: AnswerStore;
}
