/**
 * The document grid's reading: opening a grid on a target, its blocks of rows, reading it
 * again from the start, and closing it (its cursors released).
 */
import type { JsonValue } from '../../console/cell';
import type { Connection } from '../../connections/open-connection';
import type {
  DocumentBlock,
  Documents,
  FilterSyntax,
  OpenedGrid
} from '../../driver-core/driver';
import { cutLongCells } from '../../render/cell-cut';
import type { Block, GridView } from '../../../../contracts/panel-protocol';
import type { GridSession } from '../grid-sessions';
import type { PanelHandler, PanelReplyBody } from './context';

export const open: PanelHandler<'open'> = async (request, context) => {
  const connection = context.connection(request.connection);
  refuseUnoffered(request.view, connection.driver.documents);
  const grid = await connection.driver.documents.open(
    request.target,
    request.blockSize,
    request.view,
    context.signal,
    request.firstRows
  );
  if (!context.connections.isOpen(connection)) {
    await grid.reader.close().catch(() => undefined);
    throw new Error(
      endedReason(
        connection,
        context.connections.list().find(c => c.name === connection.name)
      )
    );
  }
  const session = context.sessions.add({
    commId: context.comm.id,
    connection: connection.name,
    target: request.target,
    blockSize: request.blockSize,
    view: request.view,
    reader: grid.reader
  });
  context.sessions.noteColumns(session, grid.first.columns);
  return opened(session, grid, connection.driver.documents.filters);
};

export const read: PanelHandler<'read'> = async (request, context) => {
  const session = context.session(request.gridId);
  const block = await session.reader.readBlock(request.block, context.signal);
  context.sessions.noteColumns(session, block.columns);
  return {
    type: 'block',
    gridId: session.id,
    total: session.reader.total,
    block: blockOf(request.block, session.blockSize, block)
  };
};

export const refresh: PanelHandler<'refresh'> = async (request, context) => {
  const { sessions } = context;
  const session = context.session(request.gridId);
  const documents = context.connection(session.connection).driver.documents;
  const grid = await documents.open(
    session.target,
    session.blockSize,
    session.view,
    context.signal
  );
  if (sessions.get(session.id) !== session) {
    // Its connection ended while it was read again.
    await grid.reader.close().catch(() => undefined);
    throw new Error(
      sessions.ending(session.id) ??
        `The grid ${session.id} was closed meanwhile.`
    );
  }
  await sessions.replaceReader(session, grid.reader);
  sessions.noteColumns(session, grid.first.columns);
  return opened(session, grid, documents.filters);
};

export const close: PanelHandler<'close'> = async (request, context) => {
  if (!(await context.sessions.close(request.gridId))) {
    throw new Error(
      `No grid ${request.gridId} is open in this kernel (it was closed, or the kernel restarted).`
    );
  }
  return { type: 'closed', gridId: request.gridId };
};

/** What a grid read through `ended` says: the status line leads with it. */
export function endedReason(
  ended: Connection,
  by: Connection | undefined
): string {
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
): PanelReplyBody {
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
