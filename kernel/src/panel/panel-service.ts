/**
 * The side panel's service on the `searchbook.panel` comm. Each request is validated against
 * the shared protocol, handed to its handler (handlers/index.ts, one per request type) and
 * answered exactly once, with its reply or an `error` reply; work runs beside the shell loop,
 * so a slow engine never holds up cells or other grids.
 */
import type { ProfileStore } from '../connections/profile-store';
import type { ConnectionRegistry } from '../connections/connection-registry';
import type { Connection } from '../connections/open-connection';
import { EngineError } from '../driver-core/errors';
import { Refusal } from '../console/refusal';
import { VariableScope } from '../console/variables';
import type { Comm, CommTarget } from '../protocol/comms';
import { boundCrossed } from '../protocol/json-bounds';
import type { AnswerStore } from '../console/answers';
import { PanelExports } from './export-service';
import {
  PANEL_PROTOCOL_VERSION,
  type GridRequest,
  GridRequestSchema
} from '../../../contracts/panel-protocol';
import { PANEL_REQUESTS } from '../../../contracts/panel-requests';
import { type GridSession, GridSessions } from './grid-sessions';
import type {
  PanelContext,
  PanelHandler,
  PanelReplyBody
} from './handlers/context';
import { endedReason } from './handlers/grid-handlers';
import { PANEL_HANDLERS } from './handlers';

/** How long one grid request may take before it is answered with an error. */
const REQUEST_TIMEOUT_MS = 120_000;
/**
 * A save is one request per change, each waiting for the engine's refresh (about a second on
 * Elasticsearch): hundreds of changes outlast the usual limit, and a save cut short would
 * leave its changes unanswered.
 */
const SAVE_TIMEOUT_MS = 15 * 60_000;

export class PanelService {
  readonly sessions = new GridSessions();
  readonly exports = new PanelExports();
  /** Open comms by id, for telling a panel about grids the kernel ended. */
  private readonly comms = new Map<string, Comm>();

  constructor(
    private readonly connections: ConnectionRegistry,
    private readonly profiles: () => ProfileStore,
    /** The console's variables, for a cell's curl commands. */
    private readonly scope: VariableScope = new VariableScope(),
    /** The kernel's log, for failures no request can be told about. */
    private readonly log: (line: string) => void = () => undefined,
    /** The console's answers, so a copied cell's `%set name = <expression>` reads what the cell would. */
    private readonly answers?: AnswerStore,
    /** Sets the rows kept in notebook outputs (null: the kernel's own cap); answers the cap in force. */
    private readonly keepOutputRows?: (rows: number | null) => number
  ) {
    connections.onEnded((ended, by) => this.endGrids(ended, by));
  }

  target(): CommTarget {
    return comm => {
      this.comms.set(comm.id, comm);
      return {
        // Not awaited, so a slow engine never holds up the shell; answer() settles on every path.
        onMessage: async (data, replyComm) => {
          void this.answer(data, replyComm).catch((err: unknown) =>
            this.log(
              `searchbook.panel could not answer a request: ${(err as Error).stack ?? String(err)}`
            )
          );
        },
        onClose: () => {
          this.comms.delete(comm.id);
          this.exports.cancelComm(comm.id);
          void this.sessions
            .closeComm(comm.id)
            .catch((err: unknown) =>
              this.log(
                `closing the grids of comm ${comm.id} failed: ${(err as Error).message}`
              )
            );
        }
      };
    };
  }

  /** A connection was replaced or closed: its grids end, and their panels are told at once (not at their next scroll). */
  private async endGrids(
    ended: Connection,
    by: Connection | undefined
  ): Promise<void> {
    const reason = endedReason(ended, by);
    const { ended: grids, released } = this.sessions.end(ended.name, reason);
    for (const session of grids) {
      void this.comms
        .get(session.commId)
        ?.send({
          v: PANEL_PROTOCOL_VERSION,
          requestId: null,
          type: 'ended',
          gridId: session.id,
          message: reason
        })
        .catch(() => undefined);
    }
    await released;
  }

  private async answer(
    data: Record<string, unknown>,
    comm: Comm
  ): Promise<void> {
    const requestId =
      typeof data.requestId === 'string' ? data.requestId : null;
    const send = (body: PanelReplyBody, id: string | null = requestId) =>
      comm
        .send({ v: PANEL_PROTOCOL_VERSION, requestId: id, ...body })
        .catch(() => undefined);
    // Everything, reading the message included, is inside this try: whatever fails is the
    // request's error reply, never a rejection nobody handles.
    try {
      // Before the schema, which walks the message recursively and would overflow the stack.
      const crossed = boundCrossed(data);
      if (crossed) {
        await send({
          type: 'error',
          message: `searchbook.panel refuses this message: ${crossed}. Send smaller requests (fewer changes per save, shallower values).`
        });
        return;
      }
      if (data.v !== PANEL_PROTOCOL_VERSION) {
        await send({
          type: 'error',
          message: `searchbook.panel speaks protocol version ${PANEL_PROTOCOL_VERSION}, this message has ${JSON.stringify(data.v ?? null)}: reload the page so the panel and the kernel match.`
        });
        return;
      }
      // The request's own schema when its type is known; else the whole union, whose error names the types there are.
      const parsed = (
        PANEL_REQUESTS.get(String(data.type))?.request ?? GridRequestSchema
      ).safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
        await send({
          type: 'error',
          message: `searchbook.panel cannot read this message${where}: ${issue?.message ?? 'invalid'}.`
        });
        return;
      }
      await send(
        await this.handle(
          parsed.data,
          comm,
          AbortSignal.timeout(
            parsed.data.type === 'save' ? SAVE_TIMEOUT_MS : REQUEST_TIMEOUT_MS
          )
        )
      );
    } catch (err) {
      const status = err instanceof EngineError ? err.status : undefined;
      const filterRow =
        err instanceof Refusal && err.where?.kind === 'filter'
          ? err.where.row
          : undefined;
      await send({
        type: 'error',
        message: (err as Error).message,
        ...(status !== undefined ? { status } : {}),
        ...(filterRow !== undefined ? { filterRow } : {})
      });
    }
  }

  private handle(
    request: GridRequest,
    comm: Comm,
    signal: AbortSignal
  ): Promise<PanelReplyBody> {
    const context: PanelContext = {
      comm,
      signal,
      connections: this.connections,
      profiles: this.profiles,
      scope: this.scope,
      ...(this.answers ? { answers: this.answers } : {}),
      ...(this.keepOutputRows ? { keepOutputRows: this.keepOutputRows } : {}),
      sessions: this.sessions,
      exports: this.exports,
      connection: name => this.connections.named(name),
      session: id => this.session(id)
    };
    // The table pairs each type with its handler; the compiler cannot follow the pairing through an index.
    const handler = PANEL_HANDLERS[request.type] as PanelHandler<
      GridRequest['type']
    >;
    return handler(request, context);
  }

  private session(id: string): GridSession {
    const session = this.sessions.get(id);
    const ending = this.sessions.ending(id);
    if (ending) {
      throw new Error(ending);
    }
    if (!session) {
      throw new Error(
        `No grid ${id} is open in this kernel (it was closed, or the kernel restarted); open it again from the panel.`
      );
    }
    return session;
  }
}
