/**
 * The console capability: a notebook cell's request sent as written, and its answer read and
 * shown. Exists because every engine has its own refusals, failures and answer shapes.
 */
import type { ConsoleRequest, JsonValue, Refusal } from '../../console/cell';
import type {
  AggregationTable,
  DocumentLayout,
  PartialFailure
} from '../../../../contracts/mime-types';
import type { Column } from '../../../../contracts/columns';
import type { EngineError } from '../errors';
import type { Elision } from '../http/elided-json';
import type { PythonClient } from '../python-code';

/** The engine's answer, as read off the socket. */
export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, the JSONL values for JSONL, else the text. */
  body:
    | {
        kind: 'json';
        value: JsonValue;
        /** The body's UTF-8 bytes as sent (no byte-order mark), kept so the notebook can store the engine's exact answer. */ bytes?: Buffer;
        /** The containers whose values past the read budget were left out before parsing (`value` and `bytes` lack them). */
        elisions?: readonly Elision[];
        /**
         * `value` holds the documents' shape only, their source values blanked
         * (http/shared-sources.ts); `bytes` is the whole answer. Asked for with `shapeOnly`.
         */
        shapeOnly?: true;
        /** With `shapeOnly`: where each document starts and ends in `bytes` (two numbers a document), when every one is an object or array. */
        documentRanges?: readonly number[];
      }
    | { kind: 'jsonl'; values: JsonValue[] }
    | { kind: 'text'; text: string }
    | { kind: 'empty' };
  elapsedMs: number;
  /** How the body was read when it is not what it says it is (invalid JSON, nested too deep), shown under the answer. */
  notice?: string;
  /** Which node answered, when the connection has several and it was not the first: a status line under the answer. */
  answeredBy?: string;
}

/** One aggregation or facet table as a driver builds it (the payload's shape, with JSON cells). */
export type AggregationResult = Omit<AggregationTable, 'rows'> & {
  rows: Record<string, JsonValue>[];
};

/** How a console response should be shown; render/ turns it into a MIME bundle. */
export type ConsoleResult =
  | {
      kind: 'hits';
      columns: Column[];
      rows: Record<string, JsonValue>[];
      /** Total matches, and whether it is a lower bound (`≥`). */
      total?: { value: number; relation: 'eq' | 'gte' };
      aggregations?: AggregationResult[];
      /** Where the documents sit in the answer, so the notebook can keep the answer alone and rebuild these rows from it. */
      documents?: DocumentLayout;
    }
  | {
      kind: 'table';
      rows: Record<string, JsonValue>[];
      /** The columns in the engine's order with its types, when the answer names them (ES|QL); else the rows' keys, untyped. */
      columns?: { name: string; type: string }[];
      /** What the engine says about the table as a whole, as sentences under it (a partial answer). */
      notes?: string[];
    }
  /** `fields`: the answer is a mapping or collection schema, listed field by field (dotted names). */
  | {
      kind: 'json';
      value: JsonValue;
      fields?: { field: string; type: string }[];
    }
  | { kind: 'text'; text: string };

/** A response as shown: one result, or one per search of a several-search request (`_msearch`, `multi_search`), in order. */
export type PresentedResult =
  ConsoleResult | { kind: 'searches'; searches: SearchPart[] };

/** One search of several: what it searched (index or collection), its own status and answer. */
export interface SearchPart {
  target: string;
  status: number;
  result: ConsoleResult;
  /** This search's part of the engine's answer. */
  raw: JsonValue;
  /** Said under this search's answer: what it cannot show, as a lone search's notice says it. */
  notice?: string;
}

/**
 * How a console request's answer is read. `shapeOnly`: see EngineConsole.send. `early`: with
 * `shapeOnly`, handed a successful search answer's bytes before they are read (a frontend
 * that parses them meanwhile); an engine that reads no answer so may leave it uncalled.
 */
export interface ConsoleReading {
  shapeOnly?: boolean;
  early?: (bytes: Buffer) => Promise<void>;
}

export interface EngineConsole {
  /** How to write in this engine's requests what a line of SQL asks for (the hint of a SQL refusal). */
  readonly sqlAdvice: string;
  /** Why this engine would misread a request as written (checked before anything is sent), or undefined. */
  refusal(request: ConsoleRequest): Refusal | undefined;
  /**
   * Sends one console request; rejects with EngineError (never with a raw socket error).
   * `shapeOnly`: the caller forwards a search answer's bytes and reads its documents' shape,
   * not their values; an engine may then blank them in `body.value` (and says so there).
   */
  send(
    request: ConsoleRequest,
    signal: AbortSignal,
    reading?: ConsoleReading
  ): Promise<EngineResponse>;
  /** The request as a curl command line; the credential stays an environment variable reference. */
  curl(request: ConsoleRequest): string;
  /** How this connection is reached with the engine's official Python client (Copy as Python); throws when it cannot be. */
  python(): PythonClient;
  /** The error a failed response means (status and the engine's own reason), or undefined. */
  failure(
    request: ConsoleRequest,
    response: EngineResponse
  ): EngineError | undefined;
  /** Parts of a 2xx answer that failed (bulk items, searches, shards, import lines); empty when none did. */
  partialFailures(
    request: ConsoleRequest,
    response: EngineResponse
  ): PartialFailure[];
  /** Decides how a response is shown (hits grid, table, JSON; one per search of several). */
  present(request: ConsoleRequest, response: EngineResponse): PresentedResult;
}
