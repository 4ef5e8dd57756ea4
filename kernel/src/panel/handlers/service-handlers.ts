/**
 * The panel services that answer a family of requests in their own file (admin-service.ts,
 * resource-service.ts, edit-service.ts, export-service.ts), as handlers of the panel's table.
 */
import type { AdminRequest } from '../../../../contracts/admin-protocol';
import type { EditRequest } from '../../../../contracts/edit-protocol';
import type { PanelExportRequest } from '../../../../contracts/export-protocol';
import { PANEL_PROTOCOL_VERSION } from '../../../../contracts/panel-protocol';
import type { ResourceRequest } from '../../../../contracts/resource-protocol';
import type { Driver } from '../../driver-core/driver';
import { answerAdmin } from '../admin-service';
import { answerEdit } from '../edit-service';
import type { ExportReplyBody, ExportSource } from '../export-service';
import { answerResource } from '../resource-service';
import type { PanelContext, PanelReplyBody } from './context';

/** A service that answers on the request's connection, from its driver. */
function onConnection<R extends { connection: string }>(
  answer: (
    request: R,
    driver: Driver,
    signal: AbortSignal
  ) => Promise<PanelReplyBody>
): (request: R, context: PanelContext) => Promise<PanelReplyBody> {
  return (request, context) =>
    answer(
      request,
      context.connection(request.connection).driver,
      context.signal
    );
}

/** API keys and metrics of a connection. */
export const admin = onConnection<AdminRequest>(answerAdmin);

/** Aliases, synonym and curation sets, presets, stopwords, schemas. */
export const resource = onConnection<ResourceRequest>(answerResource);

/** Saving edits, whole values of cut cells, deleting and emptying targets. */
export const edit = (
  request: EditRequest,
  context: PanelContext
): Promise<PanelReplyBody> =>
  answerEdit(
    request,
    {
      grid: id => context.session(id),
      connection: name => context.connection(name)
    },
    context.signal
  );

/** Exports of a target or a grid's filter; progress messages precede the answer. */
export const exportRequests = (
  request: PanelExportRequest,
  context: PanelContext
): Promise<PanelReplyBody> =>
  context.exports.answer(
    context.comm.id,
    request,
    exported => exportSource(exported, context),
    (body: ExportReplyBody) =>
      context.comm.send({
        v: PANEL_PROTOCOL_VERSION,
        requestId: request.requestId,
        ...body
      })
  );

function exportSource(
  request: Extract<PanelExportRequest, { type: 'export' }>,
  context: PanelContext
): ExportSource {
  if (request.gridId === undefined) {
    return { driver: context.connection(request.connection).driver };
  }
  const session = context.session(request.gridId);
  return {
    driver: context.connection(session.connection).driver,
    grid: { target: session.target, view: session.view }
  };
}
