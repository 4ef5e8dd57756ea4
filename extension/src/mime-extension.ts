import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { HITS_MIME, TABLE_MIME } from '../../kernel/src/render/mime-types';
import { ResultsOutput } from './mime/results-output';

/**
 * Rank 0 puts these ahead of the bundle's text/html and application/json fallbacks. They are
 * safe in untrusted notebooks: every value is painted or inserted as text.
 */
function factory(mimeType: string): IRenderMime.IRendererFactory {
  return { safe: true, mimeTypes: [mimeType], defaultRank: 0, createRenderer: () => new ResultsOutput(mimeType) };
}

const extensions: IRenderMime.IExtension[] = [
  { id: 'searchbook:hits', description: 'Search hits as a document grid', rendererFactory: factory(HITS_MIME), rank: 0, dataType: 'json' },
  { id: 'searchbook:table', description: 'Arrays of rows as a table', rendererFactory: factory(TABLE_MIME), rank: 0, dataType: 'json' },
];

export default extensions;
