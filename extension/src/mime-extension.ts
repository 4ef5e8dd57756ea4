import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { HITS_MIME, TABLE_MIME } from '../../kernel/src/render/mime-types';
import { ResultsOutput } from './mime/results-output';

/**
 * JupyterLab orders renderers by rank, then by registration; its JSON renderer has rank 0 and
 * registers first, so rank -1 puts these ahead of the bundle's application/json and text/html
 * fallbacks. They are safe in untrusted notebooks: every value is painted or inserted as text.
 */
const RANK = -1;

function factory(mimeType: string): IRenderMime.IRendererFactory {
  return { safe: true, mimeTypes: [mimeType], defaultRank: RANK, createRenderer: () => new ResultsOutput(mimeType) };
}

const extensions: IRenderMime.IExtension[] = [
  { id: 'searchbook:hits', description: 'Search hits as a document grid', rendererFactory: factory(HITS_MIME), rank: RANK, dataType: 'json' },
  { id: 'searchbook:table', description: 'Arrays of rows as a table', rendererFactory: factory(TABLE_MIME), rank: RANK, dataType: 'json' },
];

export default extensions;
