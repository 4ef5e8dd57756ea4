/**
 * How each index behind a grid keeps its documents, and what the grid says about it.
 *
 * - A time-series index (`index.mode: time_series`) refuses `_update` ("update is not
 *   supported because the destination index [...] is in time_series mode", 8.x and 9.x), so
 *   an edit there writes the whole document.
 * - An index may keep no sequence numbers (`index.disable_sequence_numbers`, 9.x; Elastic's
 *   release notes make that the default of time-series indices from 9.4): hits asked for
 *   `seq_no_primary_term` then carry `_seq_no: -2, _primary_term: 0` (or nothing), `_update`
 *   is refused, and so is every write with `if_seq_no` ("Optimistic concurrency control is not
 *   supported on indices with sequence numbers disabled"). An edit there is written without
 *   a condition, and the grid says that a concurrent change cannot be detected.
 * - An index with synthetic `_source` (`index.mode: logsdb` or `time_series`,
 *   `index.mapping.source.mode: synthetic`, or before 9.0 a mapping's
 *   `_source: {"mode": "synthetic"}`) answers a `_source` the engine rebuilds from its fields.
 *
 * All of this is read from what the engine says about each index (its settings, defaults
 * included, its mapping, and its hits), never from the version number: whether an index keeps
 * sequence numbers or rebuilds its source is a per-index choice (a setting and its default
 * for the index mode), which a version number cannot tell, and an index created under an
 * older version keeps what it was created with.
 * See https://www.elastic.co/docs/manage-data/data-store/data-streams/time-series-data-stream-tsds
 * and https://www.elastic.co/docs/reference/elasticsearch/mapping-reference/mapping-source-field#synthetic-source
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import type { Transport } from '../../driver-core/http/transport';

export interface IndexStorage {
  /** `index.mode: time_series`: documents are never updated in place, so an edit writes the whole document. */
  timeSeries: boolean;
  /** `index.disable_sequence_numbers`: no write can be conditional on what was read. */
  noSequenceNumbers: boolean;
  /** What makes `_source` rebuilt (`index.mode: logsdb`), for the grid to say; undefined when stored as indexed. */
  syntheticBecause?: string;
}

/** Concrete index name to how it stores documents. */
export type StorageByIndex = Map<string, IndexStorage>;

const PerIndex = z.record(
  z.string(),
  z
    .object({
      settings: z.unknown().optional(),
      defaults: z.unknown().optional()
    })
    .loose()
);

/** The settings the storage depends on, for `GET /<index>/_settings/<names>`. */
export const STORAGE_SETTINGS = [
  'index.mode',
  'index.disable_sequence_numbers',
  'index.mapping.source.mode'
];

/** A setting as a lower-case string, from flat (`flat_settings=true`) or nested settings. */
function settingOf(group: unknown, name: string): string | undefined {
  const object = asObject(group as JsonValue);
  if (!object) {
    return undefined;
  }
  let value: JsonValue | undefined = object[name];
  if (value === undefined) {
    value = name
      .split('.')
      .reduce<JsonValue | undefined>(
        (at, key) => (at === undefined ? undefined : asObject(at)?.[key]),
        object
      );
  }
  return typeof value === 'string' || typeof value === 'boolean'
    ? String(value).toLowerCase()
    : undefined;
}

/** Each index of a `GET /<target>/_settings?include_defaults=true` answer (flat or nested). */
export function storageOfSettings(answer: unknown): StorageByIndex {
  const parsed = PerIndex.safeParse(answer);
  const storage: StorageByIndex = new Map();
  if (!parsed.success) {
    return storage;
  }
  for (const [index, { settings, defaults }] of Object.entries(parsed.data)) {
    const read = (name: string) =>
      settingOf(settings, name) ?? settingOf(defaults, name);
    const mode = read('index.mode');
    const sourceMode = read('index.mapping.source.mode');
    const modeRebuilds = mode === 'logsdb' || mode === 'time_series';
    // Set on the index, the setting names itself; as a default, the index mode chose it.
    const syntheticBecause =
      settingOf(settings, 'index.mapping.source.mode') === 'synthetic'
        ? 'index.mapping.source.mode: synthetic'
        : modeRebuilds && (sourceMode ?? 'synthetic') === 'synthetic'
          ? `index.mode: ${mode}`
          : undefined;
    storage.set(index, {
      timeSeries: mode === 'time_series',
      noSequenceNumbers: read('index.disable_sequence_numbers') === 'true',
      ...(syntheticBecause ? { syntheticBecause } : {})
    });
  }
  return storage;
}

const MappedSource = z.record(
  z.string(),
  z
    .object({
      mappings: z
        .object({
          _source: z.object({ mode: z.string() }).loose().optional()
        })
        .loose()
        .optional()
    })
    .loose()
);

/** The indices of a `_mapping` answer whose mapping asks for synthetic `_source` (before 9.0). */
export function syntheticByMapping(answer: unknown): string[] {
  const parsed = MappedSource.safeParse(answer);
  if (!parsed.success) {
    return [];
  }
  return Object.entries(parsed.data)
    .filter(
      ([, index]) => index.mappings?._source?.mode.toLowerCase() === 'synthetic'
    )
    .map(([index]) => index);
}

/** One index's storage as the settings API answers it; a plain index when they cannot be read. */
export async function readIndexStorage(
  transport: Transport,
  index: string,
  signal: AbortSignal
): Promise<IndexStorage> {
  const response = await transport.send(
    {
      method: 'GET',
      path: `/${encodeURIComponent(index)}/_settings/${STORAGE_SETTINGS.join(',')}`,
      query: 'include_defaults=true&flat_settings=true'
    },
    signal
  );
  const plain = { timeSeries: false, noSequenceNumbers: false };
  if (response.status >= 300 || response.body.kind !== 'json') {
    return plain;
  }
  const storage = storageOfSettings(response.body.value);
  return storage.get(index) ?? [...storage.values()][0] ?? plain;
}

/** Names for a sentence: `a`, `a and b`, `a, b and c`. */
function listed(names: string[]): string {
  return names.length === 1
    ? (names[0] as string)
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * What the grid says about how its indices store documents: indices without sequence numbers
 * (from their settings, or hits read without `_seq_no`), and indices whose `_source` is
 * rebuilt. `target` is the grid's target: when it is the one index concerned, the notice says
 * "This index".
 */
export function storageNotes(
  target: string,
  storage: StorageByIndex,
  unversioned: string[],
  mappedSynthetic: string[],
  product: string
): string[] {
  const notes: string[] = [];
  const noSeqNo = [
    ...new Set([
      ...[...storage]
        .filter(([, s]) => s.noSequenceNumbers)
        .map(([index]) => index),
      ...unversioned
    ])
  ].sort();
  if (noSeqNo.length > 0) {
    const timeSeries = noSeqNo.every(i => storage.get(i)?.timeSeries);
    const self = noSeqNo.length === 1 && noSeqNo[0] === target;
    const subject = timeSeries
      ? self
        ? 'This is a time-series index'
        : `${listed(noSeqNo)} ${noSeqNo.length === 1 ? 'is a time-series index' : 'are time-series indices'}`
      : self
        ? 'This index keeps no sequence numbers'
        : `${listed(noSeqNo)} ${noSeqNo.length === 1 ? 'keeps' : 'keep'} no sequence numbers`;
    const where = self ? 'here' : 'there';
    notes.push(
      timeSeries
        ? `${subject}: ${product} keeps no sequence numbers ${where}, so a save cannot detect changes made by others since the rows were read.`
        : `${subject}, so a save cannot detect changes made by others since the rows were read.`
    );
  }
  const rebuilt = rebuiltSource(target, storage, mappedSynthetic, product);
  if (rebuilt) {
    notes.push(`${rebuilt} A save replaces the document with what is shown.`);
  }
  return notes;
}

/**
 * The sentence saying which indices answer a rebuilt `_source` and why; undefined when none
 * does. The grid and exports each add what it means for them.
 */
export function rebuiltSource(
  target: string,
  storage: StorageByIndex,
  mappedSynthetic: string[],
  product: string
): string | undefined {
  const synthetic = new Map<string, string>();
  for (const index of mappedSynthetic) {
    synthetic.set(index, "its mapping's _source mode: synthetic");
  }
  for (const [index, s] of storage) {
    if (s.syntheticBecause) {
      synthetic.set(index, s.syntheticBecause);
    }
  }
  if (synthetic.size === 0) {
    return undefined;
  }
  const indices = [...synthetic.keys()].sort();
  const reasons = [...new Set(synthetic.values())].join('; ');
  const self = indices.length === 1 && indices[0] === target;
  const subject = self
    ? `This index's _source is`
    : `The _source of ${listed(indices)} is`;
  return `${subject} rebuilt by ${product} (synthetic _source, ${reasons}), not the document as indexed: field order, arrays, multi-values and dropped or ignored values may differ.`;
}
