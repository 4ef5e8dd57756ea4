/**
 * The sandbox command's lines in `searchbook --help`. Kept apart from main.ts so the help
 * does not load the sandbox engines; the options themselves are listed by `searchbook sandbox
 * --help` (SANDBOX_USAGE).
 */
export const SANDBOX_SYNOPSIS = `  searchbook sandbox [--es-port 9200] [--ts-port 8108] [--tls] [--data DIR]
                     [--es-version 8.15.0|7.17.0] [--ts-version 29.0]
                     [--es-password PW] [--ts-api-key KEY] [--no-security]
                                          local Elasticsearch and Typesense stand-ins with sample data
`;
