/**
 * The `data` of a Jupyter display_data or execute_result message: MIME type to payload. Apart
 * from bundle.ts so that the fallbacks it builds on can name it.
 */
export type MimeBundle = Record<string, unknown>;
