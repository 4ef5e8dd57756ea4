import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import {
  HITS_MIME,
  JSON_MIME,
  PROGRESS_MIME,
  TABLE_MIME,
  TYPED_SECRET_MIME
} from '@searchbook/contracts/mime-types';
import { JsonOutput } from './mime/json-output';
import { ProgressOutput } from './mime/progress-output';
import { TypedSecretOutput } from './mime/typed-secret-output';
import { ResultsOutput } from './mime/results-output';

/**
 * JupyterLab orders renderers by rank, then by registration; its JSON renderer has rank 0 and
 * registers first, so rank -1 puts these ahead of the bundle's application/json and text/html
 * fallbacks. They are safe in untrusted notebooks: every value is painted or inserted as text.
 */
const RANK = -1;

function factory(
  mimeType: string,
  create: () => IRenderMime.IRenderer = () => new ResultsOutput(mimeType)
): IRenderMime.IRendererFactory {
  return {
    safe: true,
    mimeTypes: [mimeType],
    defaultRank: RANK,
    createRenderer: create
  };
}

const extensions: IRenderMime.IExtension[] = [
  {
    id: 'searchbook:hits',
    description: 'Search hits as a document grid',
    rendererFactory: factory(HITS_MIME),
    rank: RANK,
    dataType: 'json'
  },
  {
    id: 'searchbook:json',
    description: 'JSON answers with their status line',
    rendererFactory: factory(JSON_MIME, () => new JsonOutput()),
    rank: RANK,
    dataType: 'json'
  },
  {
    id: 'searchbook:progress',
    description: 'Requests in flight: elapsed time and a stop control',
    rendererFactory: factory(PROGRESS_MIME, () => new ProgressOutput()),
    rank: RANK,
    dataType: 'json'
  },
  {
    id: 'searchbook:typed-secret',
    description: 'Offers to remove a secret typed into %connect',
    rendererFactory: factory(TYPED_SECRET_MIME, () => new TypedSecretOutput()),
    rank: RANK,
    dataType: 'json'
  },
  {
    id: 'searchbook:table',
    description: 'Arrays of rows as a table',
    rendererFactory: factory(TABLE_MIME),
    rank: RANK,
    dataType: 'json'
  }
];

export default extensions;
