/** Index settings accepted at creation and by `PUT /i/_settings`, checked like ES does. */
import { illegalArgument } from './errors';
import { isObject, type Json, type JsonObject } from './json-value';
import { checkModeSettings, modeSettingKnown } from './index-modes';

const DYNAMIC = new Set([
  'max_result_window',
  'refresh_interval',
  'number_of_replicas',
  'hidden',
  'max_inner_result_window',
  'auto_expand_replicas',
  'blocks.read_only',
  'blocks.write',
  'blocks.read',
  'blocks.metadata',
  'blocks.read_only_allow_delete',
  'mapping.total_fields.limit',
  'max_terms_count',
  'default_pipeline',
  'query.default_field'
]);
const STATIC = new Set([
  'number_of_shards',
  'codec',
  'sort.field',
  'sort.order',
  'number_of_routing_shards'
]);

/** Flattens {index:{a:{b:1}}}, {"index.a.b":1} and {a:{b:1}} to {"a.b":"1"}. */
export function flattenSettings(body: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (obj: JsonObject, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix + k;
      if (isObject(v)) {
        walk(v, key + '.');
      } else {
        out[key.replace(/^index\./, '')] = stringify(v);
      }
    }
  };
  walk(body, '');
  return out;
}

function stringify(v: Json): string {
  return Array.isArray(v)
    ? v.map(stringify).join(',')
    : v === null
      ? 'null'
      : String(v);
}

function known(key: string): boolean {
  return (
    DYNAMIC.has(key) ||
    STATIC.has(key) ||
    key.startsWith('analysis.') ||
    key.startsWith('routing.') ||
    key.startsWith('similarity.')
  );
}

export function checkSettings(
  settings: Record<string, string>,
  forUpdate: boolean,
  index?: { name: string; uuid: string }
): void {
  for (const [key, value] of Object.entries(settings)) {
    const modal = modeSettingKnown(key);
    if (!known(key) && !modal) {
      throw illegalArgument(
        `unknown setting [index.${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`
      );
    }
    if (key === 'max_result_window' || key === 'max_inner_result_window') {
      const n = Number(value);
      if (!Number.isInteger(n)) {
        throw illegalArgument(
          `Failed to parse value [${value}] for setting [index.${key}]`
        );
      }
      if (n < 1) {
        throw illegalArgument(
          `Failed to parse value [${value}] for setting [index.${key}] must be >= 1`
        );
      }
    }
    if (forUpdate && (STATIC.has(key) || modal) && index) {
      throw illegalArgument(
        `Can't update non dynamic settings [[index.${key}]] for open indices [[${index.name}/${index.uuid}]]`
      );
    }
  }
  if (!forUpdate) {
    checkModeSettings(settings);
  }
}
