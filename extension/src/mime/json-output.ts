import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Panel, Widget } from '@lumino/widgets';
import {
  JSON_MIME,
  type JsonPayload,
  JsonPayloadSchema
} from '@searchbook/contracts/mime-types';
import { answerValue } from '@searchbook/contracts/answer-rows';
import { GridView } from '../datagrid/grid-view';
import { block, warningBlock } from './block';
import { jsonView } from './json-tree';
import { statusText, warningText } from './status-line';

/**
 * A JSON answer (a mapping, a write's result, an error body): the status line, a field / type
 * table when it is a mapping or schema, then the answer as an open tree (small answers as text).
 * The value is the bundle's `application/json`, which frontends without searchbook show too.
 */
export class JsonOutput extends Panel implements IRenderMime.IRenderer {
  constructor() {
    super();
    // The same frame as the grids' outputs (style/base.css).
    this.addClass('searchbook-Results');
    this.addClass('searchbook-JsonOutput');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    for (const child of [...this.widgets]) {
      child.dispose();
    }
    const parsed = JsonPayloadSchema.safeParse(model.data[JSON_MIME]);
    const value = parsed.success
      ? (answerValue(parsed.data) ?? model.data['application/json'])
      : model.data['application/json'];
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? '';
      this.addWidget(
        new Widget({
          node: block(
            'searchbook-Unreadable-reason',
            `searchbook cannot read this output's status (${JSON_MIME} did not match its schema: ${reason}).`
          )
        })
      );
    } else {
      if (parsed.data.info.title) {
        this.addWidget(
          new Widget({
            node: block('searchbook-SearchTitle', parsed.data.info.title)
          })
        );
      }
      this.addWidget(
        new Widget({
          node: block('searchbook-Status', statusText(parsed.data.info))
        })
      );
      const warning = warningText(parsed.data.info);
      if (warning) {
        this.addWidget(new Widget({ node: warningBlock(warning) }));
      }
      if (parsed.data.fields) {
        this.addFieldTable(parsed.data);
      }
    }
    this.addWidget(
      new Widget({
        node:
          value === undefined
            ? block('searchbook-Empty', 'This output does not hold the answer.')
            : jsonView(value)
      })
    );
  }

  private addFieldTable(payload: JsonPayload): void {
    const fields = payload.fields ?? [];
    const title = block(
      'searchbook-Aggregation-title',
      `Fields (${fields.length})`
    );
    this.addWidget(new Widget({ node: title }));
    const columns = [
      { name: 'field', type: '', readOnly: false, json: false },
      { name: 'type', type: '', readOnly: false, json: false }
    ];
    this.addWidget(
      new GridView(
        columns,
        fields,
        [],
        `Fields of ${payload.info.path} from ${payload.info.connection}: ${fields.length} rows, columns field, type`
      )
    );
  }
}
