/**
 * One handler per panel request type, as contracts/panel-requests.ts lists them: the
 * compiler refuses a request type without its handler here.
 */
import * as cells from './cell-copy-handlers';
import * as tree from './connection-handlers';
import type { PanelHandlers } from './context';
import * as grids from './grid-handlers';
import * as settings from './kernel-settings-handlers';
import { admin, edit, exportRequests, resource } from './service-handlers';

export const PANEL_HANDLERS: PanelHandlers = {
  connections: tree.connections,
  profiles: tree.profiles,
  targets: tree.targets,
  open: grids.open,
  read: grids.read,
  refresh: grids.refresh,
  close: grids.close,
  curl: cells.curl,
  python: cells.python,
  outputRows: settings.outputRows,
  environment: settings.environment,
  offers: admin,
  keys: admin,
  addKey: admin,
  scopedKey: admin,
  deleteKey: admin,
  metrics: admin,
  plan: edit,
  save: edit,
  wholeValue: edit,
  wholeDocument: edit,
  targetActions: edit,
  targetAction: edit,
  export: exportRequests,
  cancelExport: exportRequests,
  resourceKinds: resource,
  resourceList: resource,
  resourcePlan: resource,
  resourceApply: resource,
  collectionSchema: resource
};
