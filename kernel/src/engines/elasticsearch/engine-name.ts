/** The engine's name as `%connect` takes it, for the descriptor and what names the engine at run time (a page worker's reading). */
export const ELASTICSEARCH_ENGINE_NAME = 'elasticsearch';
