/**
 * The bodies Typesense takes for each resource, checked before anything is sent so that a
 * mistyped entry gets a reply naming the key to fix and what to write there, instead of the
 * engine's bare 400. The shapes follow Typesense's API reference
 * (https://typesense.org/docs/30.0/api/synonyms.html, .../curation.html, .../29.0/api/):
 * keys the panel does not know pass through untouched, since newer versions add some.
 */
import { z } from 'zod';
import type { ResourceKind } from '../../../../contracts/resource-protocol';

const words = (what: string) =>
  z
    .array(z.string().min(1, `write each ${what} as a non-empty text`), {
      error: `write a list of ${what}s, as in ["blazer", "coat"]`
    })
    .min(1, `write at least one ${what}`);

const SynonymItem = z.looseObject({
  synonyms: words('word'),
  root: z
    .string({
      error:
        'write the word the synonyms map to as a text ("" or leave it out for multi-way synonyms)'
    })
    .optional(),
  locale: z
    .string({ error: 'write a locale code as a text, such as "en"' })
    .optional(),
  symbols_to_index: z
    .array(z.string().length(1, 'write single characters, such as "+"'), {
      error: 'write a list of single characters, such as ["+", "#"]'
    })
    .optional()
});

const flag = (what: string) =>
  z.boolean({ error: `write true or false (${what})` }).optional();

const unixTime = z
  .number({ error: 'write a Unix time in seconds' })
  .int('write a Unix time in whole seconds')
  .optional();

const CurationRule = z
  .looseObject(
    {
      query: z
        .string({ error: 'write the query to match as a text' })
        .optional(),
      match: z
        .enum(['exact', 'contains'], {
          error: 'write "exact" or "contains"'
        })
        .optional(),
      filter_by: z
        .string({ error: 'write the filter_by to match as a text' })
        .optional(),
      tags: z
        .array(z.string(), { error: 'write a list of tag texts' })
        .optional()
    },
    {
      error:
        'write the rule as an object, such as {"query": "apple", "match": "exact"}'
    }
  )
  .refine(
    r =>
      r.filter_by !== undefined ||
      r.tags !== undefined ||
      (r.query !== undefined && r.match !== undefined),
    'give the rule a "query" with "match" ("exact" or "contains"), a "filter_by" or "tags"'
  );

const CurationItem = z
  .looseObject({
    rule: CurationRule,
    includes: z
      .array(
        z.looseObject(
          {
            id: z.string({ error: 'write the document id as a text' }),
            position: z
              .number({ error: 'write the position as a number' })
              .int('write the position as a whole number')
              .min(1, 'positions start at 1')
          },
          { error: 'write each as {"id": "42", "position": 1}' }
        ),
        { error: 'write a list such as [{"id": "42", "position": 1}]' }
      )
      .optional(),
    excludes: z
      .array(
        z.looseObject(
          { id: z.string({ error: 'write the document id as a text' }) },
          { error: 'write each as {"id": "42"}' }
        ),
        { error: 'write a list such as [{"id": "42"}]' }
      )
      .optional(),
    filter_by: z
      .string({ error: 'write a filter as a text, such as "brand:=Sony"' })
      .min(1, 'write a filter, such as "brand:=Sony", or leave it out')
      .optional(),
    sort_by: z
      .string({ error: 'write a sort as a text, such as "price:asc"' })
      .optional(),
    replace_query: z
      .string({ error: 'write the query to search instead as a text' })
      .optional(),
    remove_matched_tokens: flag('remove the rule’s words from the query'),
    filter_curated_hits: flag('apply the filter to included documents'),
    stop_processing: flag('stop at this rule'),
    metadata: z
      .record(z.string(), z.unknown(), {
        error: 'write metadata as a JSON object'
      })
      .optional(),
    effective_from_ts: unixTime,
    effective_to_ts: unixTime
  })
  .refine(
    c =>
      [
        'includes',
        'excludes',
        'filter_by',
        'sort_by',
        'remove_matched_tokens',
        'metadata',
        'replace_query'
      ].some(key => c[key] !== undefined),
    'say what the rule does: "includes", "excludes", "filter_by", "sort_by", "replace_query", "remove_matched_tokens" or "metadata"'
  )
  .refine(
    c => !(c.replace_query !== undefined && c.remove_matched_tokens === true),
    'write either "replace_query" or "remove_matched_tokens": true, not both'
  );

const withId = <T extends z.ZodType>(item: T) =>
  z
    .looseObject(
      { id: z.string({ error: 'give each item an "id" text' }).min(1) },
      { error: 'write each item as a JSON object' }
    )
    .and(item);

const SetOf = (item: z.ZodType) =>
  z.looseObject({
    items: z.array(withId(item), {
      error: 'write the set’s items as a list ([] for none)'
    }),
    description: z
      .string({ error: 'write the description as a text' })
      .optional()
  });

const BODIES: Record<ResourceKind, z.ZodType> = {
  aliases: z.looseObject({
    collection_name: z
      .string({
        error: 'write the name of the collection the alias stands for'
      })
      .min(1, 'write the name of the collection the alias stands for')
  }),
  synonymSets: SetOf(SynonymItem),
  curationSets: SetOf(CurationItem),
  synonymSetItems: SynonymItem,
  curationSetItems: CurationItem,
  synonyms: SynonymItem,
  overrides: CurationItem,
  presets: z.looseObject({
    value: z.record(z.string(), z.unknown(), {
      error:
        'write the search parameters as an object, such as {"query_by": "title"}'
    })
  }),
  stopwords: z.looseObject({
    stopwords: words('stopword'),
    locale: z
      .string({ error: 'write a locale code as a text, such as "en"' })
      .optional()
  })
};

const Obj = z.record(z.string(), z.unknown());

function where(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) =>
      typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`
    )
    .join('');
}

/**
 * The body as sent when it has the shape Typesense takes for `kind`; otherwise an error naming
 * the key to fix, what to write there, and an example entry.
 */
export function checkedBody(
  kind: ResourceKind,
  body: unknown,
  example: string
): Record<string, unknown> {
  const object = Obj.safeParse(body);
  if (!object.success) {
    throw new Error(
      `Write the entry as a JSON object, for example ${example}. Nothing was sent.`
    );
  }
  const checked = BODIES[kind].safeParse(object.data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const at = issue && issue.path.length > 0 ? `"${where(issue.path)}": ` : '';
    throw new Error(
      `${at}${issue?.message ?? 'not the shape Typesense takes'}. For example ${example}. Nothing was sent.`
    );
  }
  return object.data;
}
