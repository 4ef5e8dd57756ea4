import type { KernelMessage } from '@jupyterlab/services';
import type { Handler } from '../protocol/kernel-server';
import { PROTOCOL_VERSION } from '../protocol/message';
import { PACKAGE_VERSION } from '../package-info';
import { ENGINES } from '../engines/engine-registry';
import { BROWSER_SECRET_KINDS } from '../connections/engine-options';
import { KERNEL_INFO_SECRET_KINDS } from '../../../contracts/typed-secrets';

/**
 * The console language's name, which the extension registers its highlighting for. JupyterLab
 * copies language_info into every notebook it opens, so the examples store exactly this: its
 * `version` is the cell language's, not the package's, so a release changes no notebook.
 */
export const LANGUAGE = {
  name: 'searchbook',
  version: '1.0',
  mimetype: 'text/x-searchbook',
  fileExtension: '.searchbook'
} as const;

/** Answers kernel_info_request. */
export const kernelInfoHandler: Handler<'kernel_info_request'> = ctx =>
  ctx.reply(kernelInfo());

/** kernel_info_reply's content as JupyterLab reads it (the reply adds its status), with the secret kinds. */
export function kernelInfo(): Omit<KernelMessage.IInfoReply, 'status'> & {
  [KERNEL_INFO_SECRET_KINDS]: typeof BROWSER_SECRET_KINDS;
} {
  return {
    protocol_version: PROTOCOL_VERSION,
    implementation: 'searchbook',
    implementation_version: PACKAGE_VERSION,
    language_info: {
      name: LANGUAGE.name,
      version: LANGUAGE.version,
      mimetype: LANGUAGE.mimetype,
      file_extension: LANGUAGE.fileExtension,
      codemirror_mode: LANGUAGE.name,
      // Pygments has no searchbook lexer; its Bash lexer reads every cell form without an
      // error token (`#` comments, JSON strings, `${name}` variables, `%magic` lines), where
      // `http` needs an `HTTP/1.1` request line and `json` or `javascript` flag `#` comments.
      pygments_lexer: 'bash'
    },
    banner: `searchbook ${PACKAGE_VERSION}: ${new Intl.ListFormat('en', { type: 'conjunction' }).format(ENGINES.map(e => e.displayName))} request consoles.\nConnect with %connect, then write requests such as GET /my-index/_search.`,
    help_links: ENGINES.map(e => ({ text: e.docs.text, url: e.docs.url })),
    // The engines' own kinds of typed secret, for the extension's command that cleans a cell.
    [KERNEL_INFO_SECRET_KINDS]: BROWSER_SECRET_KINDS
  };
}
