/** The file formats `%export` and the panel's Export… write. */
export const EXPORT_FORMATS = ['jsonl', 'csv', 'json'] as const;
export type ExportFormatName = (typeof EXPORT_FORMATS)[number];
