/** A console cell copied as code: its requests as curl command lines, or as a Python program. */
import { curlOfCell } from '../cell-curl';
import { pythonOfCell } from '../cell-python';
import type { PanelHandler } from './context';

export const curl: PanelHandler<'curl'> = async (request, context) => ({
  type: 'curl',
  commands: await curlOfCell(
    request.cell,
    context.connections,
    context.scope,
    context.answers
  )
});

export const python: PanelHandler<'python'> = async (request, context) => ({
  type: 'python',
  ...(await pythonOfCell(request.cell, context.connections, context.scope, {
    ...(context.answers ? { answers: context.answers } : {}),
    ...(request.connection ? { connection: request.connection } : {})
  }))
});
