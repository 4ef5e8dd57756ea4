import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type * as nbformat from '@jupyterlab/nbformat';
import { type IOutputAreaModel, OutputAreaModel } from '@jupyterlab/outputarea';
import { type IOutputModel, OutputModel } from '@jupyterlab/rendermime';
import {
  JSONExt,
  type PartialJSONObject,
  type ReadonlyPartialJSONObject
} from '@lumino/coreutils';
import {
  HITS_MIME,
  JSON_MIME,
  TABLE_MIME
} from '@searchbook/contracts/mime-types';

/** The outputs whose bundle keeps an engine's answer: hundreds of kilobytes each. */
const ANSWER_MIME_TYPES = [HITS_MIME, TABLE_MIME, JSON_MIME];

function keepsAnswer(value: nbformat.IOutput): boolean {
  return (
    (value.output_type === 'display_data' ||
      value.output_type === 'execute_result') &&
    typeof value.data === 'object' &&
    value.data !== null &&
    ANSWER_MIME_TYPES.some(mimeType => mimeType in (value.data as object))
  );
}

/**
 * JupyterLab's output model, holding the texts of its bundle as the notebook's shared model
 * holds them. The stock model copies its bundle through JSON text when built and again on
 * every read of `data`, so each answer's text was held twice while the notebook stayed open
 * and once more by each grid built from it. Strings cannot change, so sharing them is safe:
 * the objects around them are still copied, and a change to the output still replaces its
 * bundle whole (setData), as before.
 */
export class SharedStringsOutputModel extends OutputModel {
  constructor(options: IOutputModel.IOptions) {
    super({ ...options, value: { ...options.value, data: {} } });
    const data = options.value.data as PartialJSONObject;
    // Before the output area listens to the model: the change is not signalled to anyone.
    this.setData({ data: JSONExt.deepCopy(data) });
  }

  override get data(): ReadonlyPartialJSONObject {
    const { data } = this.toJSON() as { data?: PartialJSONObject };
    return JSONExt.deepCopy(data ?? {});
  }
}

/** Which model an output gets: the sharing one for outputs keeping an answer, JupyterLab's for the rest. */
export function sharingOutputModels(
  factory: IOutputAreaModel.IContentFactory
): void {
  const stock = factory.createOutputModel.bind(factory);
  factory.createOutputModel = options =>
    keepsAnswer(options.value)
      ? new SharedStringsOutputModel(options)
      : stock(options);
}

/**
 * Installed before any notebook or console opens: their cells build output models through
 * JupyterLab's shared default factory, which offers no other way in.
 */
export const sharedOutputStringsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'searchbook:shared-output-strings',
  description:
    'Keeps one copy of each answer kept in a notebook instead of one per model',
  autoStart: true,
  activate: (_app: JupyterFrontEnd) => {
    sharingOutputModels(OutputAreaModel.defaultContentFactory);
  }
};
