/** Settings the panel passes on to the kernel: the rows kept in notebook outputs, environment variables. */
import type { PanelHandler } from './context';

export const environment: PanelHandler<'environment'> = async request => {
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
};

export const outputRows: PanelHandler<'outputRows'> = async (
  request,
  context
) => {
  if (!context.keepOutputRows) {
    throw new Error(
      'This kernel runs no cells: it keeps no rows in notebook outputs.'
    );
  }
  return {
    type: 'outputRows',
    rows: context.keepOutputRows(request.rows)
  };
};
