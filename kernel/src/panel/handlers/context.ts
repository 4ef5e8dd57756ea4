/**
 * What every panel request handler is given: the request's comm and time limit, and the
 * kernel's state it may read or change. One handler answers each request type (see index.ts).
 */
import type { AnswerStore } from '../../console/answers';
import type { VariableScope } from '../../console/variables';
import type { Connection } from '../../connections/open-connection';
import type { ProfileStore } from '../../connections/profile-store';
import type { ConnectionRegistry } from '../../connections/connection-registry';
import type { Comm } from '../../protocol/comms';
import type {
  PanelRequest,
  PanelRequestType,
  ReplyBody
} from '../../../../contracts/panel-requests';
import type { GridReply } from '../../../../contracts/panel-protocol';
import type { PanelExports } from '../export-service';
import type { GridSession, GridSessions } from '../grid-sessions';

export type PanelReplyBody = ReplyBody<GridReply>;

export interface PanelContext {
  /** The comm the request came on: progress messages go back on it, grids belong to it. */
  comm: Comm;
  signal: AbortSignal;
  connections: ConnectionRegistry;
  profiles: () => ProfileStore;
  /** The console's variables and answers, for a copied cell's requests. */
  scope: VariableScope;
  answers?: AnswerStore;
  /** Sets the rows kept in notebook outputs (null: the kernel's own cap); answers the cap in force. */
  keepOutputRows?: (rows: number | null) => number;
  sessions: GridSessions;
  exports: PanelExports;
  /** The open connection of this name, or an error saying how to open it. */
  connection(name: string): Connection;
  /** The open grid of this id, or an error saying why it is gone. */
  session(id: string): GridSession;
}

export type PanelHandler<T extends PanelRequestType> = (
  request: PanelRequest<T>,
  context: PanelContext
) => Promise<PanelReplyBody>;

export type PanelHandlers = { [T in PanelRequestType]: PanelHandler<T> };
