/**
 * Elasticsearch error bodies as real clusters send them (the shapes of the 7.17 and 8.19 nodes,
 * a point-in-time search's shard failures among them): the message leads with the deepest
 * cause, says each cause once, and names the wrapper after it.
 */
import { elasticsearchFailure } from '../../kernel/src/engines/elasticsearch/failure';

const failure = (status: number, body: unknown) =>
  elasticsearchFailure({
    status,
    headers: {},
    body: { kind: 'json', value: body as never },
    elapsedMs: 1
  })?.message;

it('a parse error nested in caused_by leads with the innermost reason', () => {
  const body = {
    error: {
      root_cause: [
        {
          type: 'x_content_parse_exception',
          reason: '[1:30] [bool] failed to parse field [must]'
        }
      ],
      type: 'x_content_parse_exception',
      reason: '[1:30] [bool] failed to parse field [must]',
      caused_by: {
        type: 'x_content_parse_exception',
        reason: '[1:41] [match] failed to parse',
        caused_by: {
          type: 'illegal_argument_exception',
          reason: 'unknown query [matc]'
        }
      }
    },
    status: 400
  };
  expect(failure(400, body)).toBe(
    'Elasticsearch answered 400: illegal_argument_exception: unknown query [matc]; x_content_parse_exception: [1:30] [bool] failed to parse field [must]'
  );
});

it('shards failing for different reasons are each named once, before the wrapper', () => {
  const cause = (reason: string) => ({ type: 'query_shard_exception', reason });
  const body = {
    error: {
      root_cause: [
        cause('failed to create query: For input string: "abc"'),
        cause('failed to create query: For input string: "abc"')
      ],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      failed_shards: [
        {
          shard: 0,
          index: 'logs-1',
          reason: cause('failed to create query: For input string: "abc"')
        },
        {
          shard: 0,
          index: 'logs-2',
          reason: {
            type: 'query_shard_exception',
            reason: 'No mapping found for [ts]',
            caused_by: {
              type: 'illegal_argument_exception',
              reason: 'field [ts] not mapped'
            }
          }
        }
      ]
    },
    status: 400
  };
  expect(failure(400, body)).toBe(
    'Elasticsearch answered 400: query_shard_exception: failed to create query: For input string: "abc"; illegal_argument_exception: field [ts] not mapped (reported as search_phase_execution_exception: all shards failed)'
  );
});

it('an error without causes keeps its own type and reason; a bare string error is kept too', () => {
  expect(
    failure(409, {
      error: {
        root_cause: [],
        type: 'version_conflict_engine_exception',
        reason: '[1]: version conflict'
      },
      status: 409
    })
  ).toBe(
    'Elasticsearch answered 409: version_conflict_engine_exception: [1]: version conflict'
  );
  expect(
    failure(400, {
      error: 'Incorrect HTTP method for uri [/x] and method [PATCH]',
      status: 405
    })
  ).toBe(
    'Elasticsearch answered 400: Incorrect HTTP method for uri [/x] and method [PATCH]'
  );
});
