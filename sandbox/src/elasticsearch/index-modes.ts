/**
 * Index modes and how they change what an index answers, as real 8.19 and 9.5 nodes do:
 * - `index.mode: time_series` (with `index.routing_path`) refuses `_update` ("update is not
 *   supported because the destination index [...] is in time_series mode");
 * - `index.disable_sequence_numbers: true` (9.x) answers `_seq_no: -2, _primary_term: 0`
 *   everywhere, refuses `_update`, and refuses every write with `if_seq_no`;
 * - `index.mode: logsdb` or `time_series`, or `index.mapping.source.mode: synthetic`, keep a
 *   synthetic `_source`: the document the engine answers is rebuilt from its fields, its keys
 *   in name order (the one difference from what was indexed that the sandbox reproduces).
 * The sandbox gives time-series documents the ids it gives any other; a real node derives them
 * from the dimensions and `@timestamp` and refuses one chosen by the writer.
 */
import { esError, illegalArgument } from './errors';
import { isObject, type Json, type JsonObject } from './json-value';

/** An index as far as its mode goes: its settings under `index.`, as ES prints them. */
interface Moded {
  readonly name: string;
  readonly uuid: string;
  readonly settings: Record<string, string>;
}

const MODES = ['standard', 'time_series', 'logsdb', 'lookup'];
const SOURCE_MODES = ['stored', 'synthetic', 'disabled'];

/**
 * Settings of the index modes. `disable_sequence_numbers` is 9.x's; the sandbox pretends 7.x or
 * 8.x only, and takes it whatever its version so that grids and edits of an index without
 * sequence numbers can be tried on it (a real 9.5.3 node answers the same, see
 * test/real-elasticsearch/index-storage.test.ts).
 */
export function modeSettingKnown(key: string): boolean {
  return (
    key === 'disable_sequence_numbers' ||
    key === 'mode' ||
    key === 'routing_path' ||
    key === 'mapping.source.mode' ||
    key.startsWith('time_series.')
  );
}

/** Checks a new index's mode settings as ES does at creation. */
export function checkModeSettings(settings: Record<string, string>): void {
  const mode = settings['mode'];
  if (mode !== undefined && !MODES.includes(mode)) {
    throw illegalArgument(
      `[index.mode] must be one of [${MODES.join(', ')}] but was [${mode}]`
    );
  }
  const source = settings['mapping.source.mode'];
  if (source !== undefined && !SOURCE_MODES.includes(source.toLowerCase())) {
    throw illegalArgument(
      `No enum constant org.elasticsearch.index.mapper.SourceFieldMapper.Mode.${source.toUpperCase()}`
    );
  }
  if (mode === 'time_series' && !settings['routing_path']) {
    throw illegalArgument(
      '[index.mode=time_series] requires a non-empty [index.routing_path]'
    );
  }
}

function mode(index: Moded): string {
  return index.settings['mode'] ?? 'standard';
}

export function keepsSequenceNumbers(index: Moded): boolean {
  return index.settings['disable_sequence_numbers'] !== 'true';
}

/** What a hit, a get or a write answer says for `_seq_no` and `_primary_term`. */
export function shownSequence(
  index: Moded,
  seqNo: number
): { _seq_no: number; _primary_term: number } {
  return keepsSequenceNumbers(index)
    ? { _seq_no: seqNo, _primary_term: 1 }
    : { _seq_no: -2, _primary_term: 0 };
}

/** The effective `index.mapping.source.mode`: set, else the mode's default. */
function sourceMode(index: Moded): string {
  const set = index.settings['mapping.source.mode'];
  if (set !== undefined) {
    return set.toLowerCase();
  }
  return mode(index) === 'logsdb' || mode(index) === 'time_series'
    ? 'synthetic'
    : 'stored';
}

/** `include_defaults=true`: the mode settings the index did not set, as ES prints its defaults. */
export function modeDefaults(index: Moded): JsonObject {
  const defaults: JsonObject = {};
  if (index.settings['mode'] === undefined) {
    defaults['mode'] = 'standard';
  }
  if (index.settings['mapping.source.mode'] === undefined) {
    defaults['mapping'] = { source: { mode: sourceMode(index).toUpperCase() } };
  }
  if (index.settings['disable_sequence_numbers'] === undefined) {
    defaults['disable_sequence_numbers'] = 'false';
  }
  return { index: defaults };
}

/** The document as the index answers it: rebuilt (keys in name order) where `_source` is synthetic. */
export function storedSource(index: Moded, source: JsonObject): JsonObject {
  return sourceMode(index) === 'synthetic'
    ? (rebuilt(source) as JsonObject)
    : source;
}

function rebuilt(value: Json): Json {
  if (Array.isArray(value)) {
    return value.map(rebuilt);
  }
  if (!isObject(value)) {
    return value;
  }
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = rebuilt(value[key] as Json);
  }
  return out;
}

/** `_update` where the index refuses it; time-series mode is checked first, as ES does. */
export function refuseUpdate(index: Moded): void {
  if (mode(index) === 'time_series') {
    throw illegalArgument(
      `update is not supported because the destination index [${index.name}] is in time_series mode`
    );
  }
  if (!keepsSequenceNumbers(index)) {
    throw esError(400, {
      type: 'update_not_supported_exception',
      reason:
        'Updates are not supported on indices with sequence numbers disabled',
      index_uuid: index.uuid,
      shard: '0',
      index: index.name
    });
  }
}

/** A write with `if_seq_no` to an index without sequence numbers. */
export function refuseConditionalWrite(index: Moded): void {
  if (!keepsSequenceNumbers(index)) {
    throw esError(400, {
      type: 'o_c_c_not_supported_exception',
      reason:
        'Optimistic concurrency control is not supported on indices with sequence numbers disabled',
      index_uuid: index.uuid,
      shard: '0',
      index: index.name
    });
  }
}
