/**
 * The side panel's service on the `searchbook.panel` comm. Each request is validated against
 * the shared protocol and answered exactly once, with its reply or an `error` reply; work runs
 * beside the shell loop, so a slow engine never holds up cells or other grids.
 */
import type { JsonValue } from '../console/cell';
import { profileAddress } from '../connections/profile-url';
import type { ProfileStore } from '../connections/profile-store';
import type { ConnectionRegistry } from '../connections/registry';
import type { Connection } from '../connections/open-connection';
import {
  type DocumentBlock,
  type Documents,
  type FilterSyntax,
  type OpenedGrid
} from '../engine/driver';
import { EngineError } from '../engine/errors';
import { Refusal } from '../console/refusal';
import { VariableScope } from '../console/variables';
import type { Comm, CommTarget } from '../protocol/comms';
import { boundCrossed } from '../protocol/json-bounds';
import { curlOfCell } from './cell-curl';
import { pythonOfCell } from './cell-python';
import type { AnswerStore } from '../console/answers';
import { cutLongCells } from '../render/cell-cut';
import { isAdminRequest } from '../../../contracts/admin-protocol';
import { answerAdmin } from './admin-service';
import { isResourceRequest } from '../../../contracts/resource-protocol';
import { answerResource } from './resource-service';
import { isEditRequest } from '../../../contracts/edit-protocol';
import { answerEdit } from './edit-service';
import {
  isExportRequest,
  type PanelExportRequest
} from '../../../contracts/export-protocol';
import { type ExportSource, PanelExports } from './export-service';
import {
  type Block,
  PANEL_PROTOCOL_VERSION,
  type GridReply,
  type GridRequest,
  GridRequestSchema,
  type GridView
} from '../../../contracts/panel-protocol';
import { type GridSession, GridSessions } from './grid-sessions';

/** How long one grid request may take before it is answered with an error. */
const REQUEST_TIMEOUT_MS = 120_000;
/**
 * A save is one request per change, each waiting for the engine's refresh (about a second on
 * Elasticsearch): hundreds of changes outlast the usual limit, and a save cut short would
 * leave its changes unanswered.
 */
const SAVE_TIMEOUT_MS = 15 * 60_000;

type ReplyBody = GridReply extends infer R
  ? R extends GridReply
    ? Omit<R, 'v' | 'requestId'>
    : never
  : never;

export class GridService {
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
    const send = (body: ReplyBody, id: string | null = requestId) =>
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
      const parsed = GridRequestSchema.safeParse(data);
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

  private async handle(
    request: GridRequest,
    comm: Comm,
    signal: AbortSignal
  ): Promise<ReplyBody> {
    if (isAdminRequest(request)) {
      return answerAdmin(
        request,
        this.connection(request.connection).driver,
        signal
      );
    }
    if (isResourceRequest(request)) {
      return answerResource(
        request,
        this.connection(request.connection).driver,
        signal
      );
    }
    if (isEditRequest(request)) {
      return answerEdit(
        request,
        {
          grid: id => this.session(id),
          connection: name => this.connection(name)
        },
        signal
      );
    }
    if (isExportRequest(request)) {
      const progress = (body: ReplyBody) =>
        comm.send({
          v: PANEL_PROTOCOL_VERSION,
          requestId: request.requestId,
          ...body
        });
      return this.exports.answer(
        comm.id,
        request,
        exported => this.exportSource(exported),
        progress
      );
    }
    switch (request.type) {
      case 'environment': {
        for (const [name, value] of Object.entries(request.values)) {
          if (value === null) {
            delete process.env[name];
          } else {
            process.env[name] = value;
          }
        }
        return {
          type: 'environment',
          count: Object.keys(request.values).length
        };
      }
      case 'outputRows': {
        if (!this.keepOutputRows) {
          throw new Error(
            'This kernel runs no cells: it keeps no rows in notebook outputs.'
          );
        }
        return {
          type: 'outputRows',
          rows: this.keepOutputRows(request.rows)
        };
      }
      case 'connections': {
        const active = this.connections.active;
        return {
          type: 'connections',
          connections: this.connections.list().map(c => ({
            name: c.name,
            engine: c.engine,
            product: c.engineLabel,
            address: c.address,
            version: c.identity.version,
            ...(c.authSummary ? { auth: c.authSummary } : {}),
            active: c === active
          }))
        };
      }
      case 'profiles': {
        try {
          const file = await this.profiles().load();
          return {
            type: 'profiles',
            profiles: file.profiles.map(p => ({
              name: p.name,
              engine: p.engine,
              address: profileAddress(p)
            }))
          };
        } catch (err) {
          return {
            type: 'profiles',
            profiles: [],
            problem: (err as Error).message
          };
        }
      }
      case 'targets': {
        const listing = await this.connection(
          request.connection
        ).driver.catalog.listTargets(signal);
        return {
          type: 'targets',
          connection: request.connection,
          targets: listing.targets,
          ...(listing.note ? { note: listing.note } : {})
        };
      }
      case 'open': {
        const connection = this.connection(request.connection);
        refuseUnoffered(request.view, connection.driver.documents);
        const grid = await connection.driver.documents.open(
          request.target,
          request.blockSize,
          request.view,
          signal,
          request.firstRows
        );
        if (!this.connections.isOpen(connection)) {
          await grid.reader.close().catch(() => undefined);
          throw new Error(
            endedReason(
              connection,
              this.connections.list().find(c => c.name === connection.name)
            )
          );
        }
        const session = this.sessions.add({
          commId: comm.id,
          connection: connection.name,
          target: request.target,
          blockSize: request.blockSize,
          view: request.view,
          reader: grid.reader
        });
        this.sessions.noteColumns(session, grid.first.columns);
        return opened(session, grid, connection.driver.documents.filters);
      }
      case 'read': {
        const session = this.session(request.gridId);
        const block = await session.reader.readBlock(request.block, signal);
        this.sessions.noteColumns(session, block.columns);
        return {
          type: 'block',
          gridId: session.id,
          total: session.reader.total,
          block: blockOf(request.block, session.blockSize, block)
        };
      }
      case 'refresh': {
        const session = this.session(request.gridId);
        const documents = this.connection(session.connection).driver.documents;
        const grid = await documents.open(
          session.target,
          session.blockSize,
          session.view,
          signal
        );
        if (this.sessions.get(session.id) !== session) {
          // Its connection ended while it was read again.
          await grid.reader.close().catch(() => undefined);
          throw new Error(
            this.sessions.ending(session.id) ??
              `The grid ${session.id} was closed meanwhile.`
          );
        }
        await this.sessions.replaceReader(session, grid.reader);
        this.sessions.noteColumns(session, grid.first.columns);
        return opened(session, grid, documents.filters);
      }
      case 'curl':
        return {
          type: 'curl',
          commands: await curlOfCell(
            request.cell,
            this.connections,
            this.scope,
            this.answers
          )
        };
      case 'python':
        return {
          type: 'python',
          ...(await pythonOfCell(request.cell, this.connections, this.scope, {
            ...(this.answers ? { answers: this.answers } : {}),
            ...(request.connection ? { connection: request.connection } : {})
          }))
        };
      case 'close': {
        if (!(await this.sessions.close(request.gridId))) {
          throw new Error(
            `No grid ${request.gridId} is open in this kernel (it was closed, or the kernel restarted).`
          );
        }
        return { type: 'closed', gridId: request.gridId };
      }
    }
  }

  private exportSource(
    request: Extract<PanelExportRequest, { type: 'export' }>
  ): ExportSource {
    if (request.gridId === undefined) {
      return { driver: this.connection(request.connection).driver };
    }
    const session = this.session(request.gridId);
    return {
      driver: this.connection(session.connection).driver,
      grid: { target: session.target, view: session.view }
    };
  }

  private connection(name: string): Connection {
    const found = this.connections.list().find(c => c.name === name);
    if (!found) {
      throw new Error(
        `No open connection is named "${name}" in this kernel; open it with %connect ${name}.`
      );
    }
    return found;
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

/** What a grid read through `ended` says: the status line leads with it. */
function endedReason(ended: Connection, by: Connection | undefined): string {
  if (!by) {
    return `connection closed: reopen. "${ended.name}" is no longer open in this kernel; %connect it again, then Refresh reopens this grid on it.`;
  }
  const where = by.address === ended.address ? '' : ` (now ${by.address})`;
  return `connection replaced: reopen. %connect opened "${ended.name}" again${where}, and this grid was reading the connection it replaced; Refresh reopens it on the new one.`;
}

/** A search query on an engine without search previews would be dropped silently: refused instead, nothing sent. */
function refuseUnoffered(view: GridView, documents: Documents): void {
  if (view.search && !documents.searches) {
    throw new Error(
      `This database offers no search preview in the grid: clear the search query, and use the filter bar (or a console cell) instead.`
    );
  }
}

function opened(
  session: GridSession,
  { first, notes, sortedBy, request, searchPreview }: OpenedGrid,
  filters: FilterSyntax
): ReplyBody {
  return {
    type: 'opened',
    gridId: session.id,
    connection: session.connection,
    target: session.target,
    blockSize: session.blockSize,
    total: session.reader.total,
    columns: first.columns,
    first: blockOf(0, session.blockSize, first),
    notes,
    sortedBy,
    request,
    matchCaseSupported: filters.matchCase,
    operators: filters.operators,
    rawFilterHint: filters.rawHint,
    ...(searchPreview ? { searchPreview } : {})
  };
}

function blockOf(
  index: number,
  blockSize: number,
  block: DocumentBlock
): Block {
  const { rows, cut } = cutLongCells(block.rows as Record<string, JsonValue>[]);
  return {
    block: index,
    offset: index * blockSize,
    rows,
    cut,
    columns: block.columns,
    requests: block.requests,
    ...(block.keys ? { keys: block.keys } : {}),
    ...(block.versions ? { versions: block.versions } : {}),
    ...(block.highlights ? { highlights: block.highlights } : {})
  };
}
