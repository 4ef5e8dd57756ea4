import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type {
  CollectionSchemaView,
  SchemaField
} from '@searchbook/contracts/resource-protocol';
import { copyText } from '../datagrid/clipboard';
import type { PanelClient } from '../panel-client';

const FLAGS = ['facet', 'index', 'sort', 'infix', 'optional'] as const;

/** A vector field and its auto-embedding in the schema's own keys, as a user wrote them. */
function vectorParts(field: SchemaField): string[] {
  const vector = field.vector;
  const params = Object.entries(vector?.hnswParams ?? {});
  return [
    vector ? `num_dim ${vector.numDim}` : '',
    vector?.vecDist ? `vec_dist ${vector.vecDist}` : '',
    params.length > 0
      ? `hnsw_params ${params.map(([key, value]) => `${key} ${value}`).join(' ')}`
      : '',
    field.embed
      ? `embed from ${field.embed.from.join(', ') || '(none)'} by model ${field.embed.modelName}`
      : ''
  ];
}

function fieldRow(field: SchemaField): HTMLTableRowElement {
  const row = document.createElement('tr');
  const flags = FLAGS.filter(flag => field[flag]);
  const extra = [
    field.locale === '' ? '' : `locale ${field.locale}`,
    field.nested ? 'nested' : '',
    field.reference ? `reference ${field.reference}` : '',
    ...vectorParts(field)
  ].filter(text => text !== '');
  for (const text of [
    field.name,
    field.type,
    flags.join(', '),
    extra.join(', ')
  ]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

/** The sets a collection names, on servers that keep sets; nothing on others. */
function setsNamed(what: string, sets: string[] | undefined): string[] {
  if (sets === undefined) {
    return [];
  }
  return [`${what} ${sets.length > 0 ? sets.join(', ') : '(none)'}`];
}

function schemaNode(schema: CollectionSchemaView): HTMLElement {
  const node = document.createElement('div');
  node.className = 'searchbook-Schema';
  const note = document.createElement('p');
  note.className = 'searchbook-Admin-note';
  note.textContent =
    'Read-only: change a schema in a cell, for example with the request below.';
  const table = document.createElement('table');
  table.setAttribute('aria-label', `Fields of ${schema.name}`);
  const head = document.createElement('tr');
  for (const text of ['Field', 'Type', 'Flags', 'Other']) {
    const th = document.createElement('th');
    th.textContent = text;
    head.append(th);
  }
  table.append(head, ...schema.fields.map(fieldRow));
  const facts = document.createElement('p');
  facts.className = 'searchbook-Schema-facts';
  facts.textContent = [
    `default sorting field ${schema.defaultSortingField || '(none)'}`,
    `token separators ${schema.tokenSeparators.length > 0 ? JSON.stringify(schema.tokenSeparators) : '(none)'}`,
    `symbols to index ${schema.symbolsToIndex.length > 0 ? JSON.stringify(schema.symbolsToIndex) : '(none)'}`,
    `nested fields ${schema.enableNestedFields ? 'enabled' : 'disabled'}`,
    ...setsNamed('synonym sets', schema.synonymSets),
    ...setsNamed('curation sets', schema.curationSets)
  ].join(' · ');
  const cell = document.createElement('pre');
  cell.className = 'searchbook-PlannedRequest';
  cell.setAttribute('aria-label', 'Add-field cell');
  cell.textContent = schema.addFieldCell;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'jp-Button searchbook-Toolbar-button';
  copy.textContent = 'Copy as cell';
  copy.addEventListener('click', () => {
    copyText(schema.addFieldCell).then(
      () => {
        copy.textContent = 'Copied';
      },
      () => {
        copy.textContent = 'Not copied: select the text and press Ctrl+C';
      }
    );
  });
  node.append(note, table, facts, cell, copy);
  return node;
}

/** Shows a collection's schema read-only, with the add-field request to copy as a cell. */
export async function showCollectionSchema(
  client: PanelClient,
  connection: string,
  collection: string
): Promise<void> {
  const { schema } = await client.request(
    { type: 'collectionSchema', connection, collection },
    'collectionSchema'
  );
  await showDialog({
    title: `Schema of ${schema.name}`,
    body: new Widget({ node: schemaNode(schema) }),
    buttons: [Dialog.okButton({ label: 'Close' })]
  });
}
