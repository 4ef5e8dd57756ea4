import { VariableScope } from './console/variables';
import { ConnectionRegistry } from './connections/connection-registry';
import { CellRunner } from './execute/cell-runner';
import {
  FORMER_COMM_TARGET,
  PANEL_COMM_TARGET
} from '../../contracts/panel-protocol';
import { formerCommTarget } from './panel/former-comm';
import { PanelService } from './panel/panel-service';
import { removeRunningPartials } from './export/running-exports';
import { ProfileStore } from './connections/profile-store';
import { commHandlers } from './handlers/comms';
import { interruptHandler } from './handlers/control';
import { type ExecutionState, executeHandler } from './handlers/execute';
import { historyHandler, SessionHistory } from './handlers/history';
import {
  completeHandler,
  inspectHandler,
  isCompleteHandler
} from './handlers/introspection';
import { CommRegistry } from './protocol/comms';
import type { Handler } from './protocol/kernel-server';
import type { SESSION_REQUESTS } from './session-requests';
import type { SecretMask } from './render/secret-mask';

export interface SessionHooks {
  takeQueuedExecutions(): Promise<() => Promise<void>>;
  cancelInput(): void;
  log(line: string): void;
  /** The secrets masked in outputs and in the log. */
  secrets: SecretMask;
}

/** The console's state (variables, connections, comms) and the handlers that use it. */
export function createSession(hooks: SessionHooks): {
  handlers: Record<(typeof SESSION_REQUESTS)[number], Handler>;
  close(): Promise<void>;
} {
  const scope = new VariableScope(undefined, undefined, hooks.secrets);
  const connections = new ConnectionRegistry();
  const runner = new CellRunner(scope, connections);
  const comms = new CommRegistry();
  const panel = new PanelService(
    connections,
    () => new ProfileStore(),
    scope,
    hooks.log,
    runner.answers,
    rows => runner.keepOutputRows(rows)
  );
  comms.register(PANEL_COMM_TARGET, panel.target());
  comms.register(FORMER_COMM_TARGET, formerCommTarget());
  const history = new SessionHistory();
  const state: ExecutionState = { count: 0, history, secrets: hooks.secrets };
  return {
    handlers: {
      execute_request: executeHandler(runner, state, () =>
        hooks.takeQueuedExecutions()
      ),
      complete_request: completeHandler(connections, scope),
      inspect_request: inspectHandler(connections, scope),
      is_complete_request: isCompleteHandler,
      history_request: historyHandler(history),
      interrupt_request: interruptHandler(runner, () => hooks.cancelInput()),
      ...commHandlers(comms, hooks.log, data => hooks.secrets.output(data))
    },
    close: async () => {
      // Points in time are released while their connections can still send.
      panel.exports.cancelAll();
      // No one is left to be told where a running export's temporary file is.
      removeRunningPartials();
      await panel.sessions.closeAll();
      await connections.closeAll();
    }
  };
}
