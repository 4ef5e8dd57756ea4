import {
  getIndentation,
  indentUnit,
  StreamLanguage,
  StringStream
} from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import {
  consoleTokens,
  type ConsoleState
} from '../../extension/src/language/console-tokens';

/** Runs the highlighter over a cell the way CodeMirror does, line by line. */
function tokens(cell: string): Array<[string, string]> {
  const state: ConsoleState = consoleTokens.startState!(2);
  const out: Array<[string, string]> = [];
  for (const line of cell.split('\n')) {
    if (line === '') {
      consoleTokens.blankLine?.(state, 2);
      continue;
    }
    const stream = new StringStream(line, 2, 2);
    while (!stream.eol()) {
      const style = consoleTokens.token(stream, state);
      const text = stream.current();
      if (style && text.trim()) {
        out.push([text, style]);
      }
      stream.start = stream.pos;
    }
  }
  return out;
}

describe('console highlighting', () => {
  it('colours the method, path, query string and a JSON body', () => {
    expect(
      tokens(
        'GET /products/_search?size=5&pretty\n{"query": {"match": {"name": "lamp"}}, "size": 10, "explain": true}'
      )
    ).toEqual([
      ['GET', 'keyword'],
      ['/products/_search', 'url'],
      ['?', 'operator'],
      ['size', 'attributeName'],
      ['=', 'operator'],
      ['5', 'string'],
      ['&', 'operator'],
      ['pretty', 'string'],
      ['{', 'bracket'],
      ['"query"', 'propertyName'],
      [':', 'punctuation'],
      ['{', 'bracket'],
      ['"match"', 'propertyName'],
      [':', 'punctuation'],
      ['{', 'bracket'],
      ['"name"', 'propertyName'],
      [':', 'punctuation'],
      ['"lamp"', 'string'],
      ['}', 'bracket'],
      ['}', 'bracket'],
      [',', 'punctuation'],
      ['"size"', 'propertyName'],
      [':', 'punctuation'],
      ['10', 'number'],
      [',', 'punctuation'],
      ['"explain"', 'propertyName'],
      [':', 'punctuation'],
      ['true', 'atom'],
      ['}', 'bracket']
    ]);
  });

  it('colours comments, magics with options, and variables in paths and strings', () => {
    expect(
      tokens(
        '# look up one\n%connect elasticsearch http://127.0.0.1:9200 password=${env:ES_PASSWORD}\nGET /${index}/_doc/1\n// done'
      )
    ).toEqual([
      ['# look up one', 'comment'],
      ['%connect', 'meta'],
      ['password', 'attributeName'],
      ['=', 'operator'],
      ['${env:ES_PASSWORD}', 'variableName.special'],
      ['GET', 'keyword'],
      ['/', 'url'],
      ['${index}', 'variableName.special'],
      ['/_doc/1', 'url'],
      ['// done', 'comment']
    ]);
    expect(tokens('POST /i/_doc\n{"name": "a ${who} b"}').slice(3, 8)).toEqual([
      ['"name"', 'propertyName'],
      [':', 'punctuation'],
      ['"a ', 'string'],
      ['${who}', 'variableName.special'],
      [' b"', 'string']
    ]);
  });

  it('keeps a triple-quoted string open across lines, and a new request line ends a body', () => {
    const result = tokens(
      'POST /i/_search\n{"query": {"query_string": {"query": """a "quoted"\nthing"""}}}\nGET /_cat/indices'
    );
    expect(result).toContainEqual(['"""a "quoted"', 'string']);
    expect(result).toContainEqual(['thing"""', 'string']);
    expect(result.slice(-2)).toEqual([
      ['GET', 'keyword'],
      ['/_cat/indices', 'url']
    ]);
  });
});

describe('ES|QL highlighting of a POST /_query body', () => {
  it('colours the query string as ES|QL: commands, pipes, strings, numbers, operators, functions', () => {
    expect(
      tokens(
        'POST /_query?format=json\n{"query": "FROM products | WHERE price > 10.5 AND brand == \\"acme\\" | STATS c = COUNT(*) BY brand | SORT c DESC | LIMIT 5", "columnar": false}'
      )
    ).toEqual([
      ['POST', 'keyword'],
      ['/_query', 'url'],
      ['?', 'operator'],
      ['format', 'attributeName'],
      ['=', 'operator'],
      ['json', 'string'],
      ['{', 'bracket'],
      ['"query"', 'propertyName'],
      [':', 'punctuation'],
      ['"', 'string'],
      ['FROM', 'keyword'],
      ['|', 'operator'],
      ['WHERE', 'keyword'],
      ['>', 'operator'],
      ['10.5', 'number'],
      ['AND', 'keyword'],
      ['==', 'operator'],
      ['\\"acme\\"', 'string'],
      ['|', 'operator'],
      ['STATS', 'keyword'],
      ['=', 'operator'],
      ['COUNT', 'variableName.function'],
      ['(', 'punctuation'],
      ['*', 'operator'],
      [')', 'punctuation'],
      ['BY', 'keyword'],
      ['|', 'operator'],
      ['SORT', 'keyword'],
      ['DESC', 'keyword'],
      ['|', 'operator'],
      ['LIMIT', 'keyword'],
      ['5', 'number'],
      ['"', 'string'],
      [',', 'punctuation'],
      ['"columnar"', 'propertyName'],
      [':', 'punctuation'],
      ['false', 'atom'],
      ['}', 'bracket']
    ]);
  });

  it('colours a triple-quoted query across lines, with its strings, EVAL, KEEP, variables and comments', () => {
    expect(
      tokens(
        'POST /_query/async\n{\n  "query": """\n    FROM ${index}\n    | EVAL label = CONCAT("a", "b") // why\n    | KEEP label\n  """,\n  "wait_for_completion_timeout": "2s"\n}'
      )
    ).toEqual([
      ['POST', 'keyword'],
      ['/_query/async', 'url'],
      ['{', 'bracket'],
      ['"query"', 'propertyName'],
      [':', 'punctuation'],
      ['"""', 'string'],
      ['FROM', 'keyword'],
      ['${index}', 'variableName.special'],
      ['|', 'operator'],
      ['EVAL', 'keyword'],
      ['=', 'operator'],
      ['CONCAT', 'variableName.function'],
      ['(', 'punctuation'],
      ['"a"', 'string'],
      [',', 'punctuation'],
      ['"b"', 'string'],
      [')', 'punctuation'],
      ['// why', 'comment'],
      ['|', 'operator'],
      ['KEEP', 'keyword'],
      ['"""', 'string'],
      [',', 'punctuation'],
      ['"wait_for_completion_timeout"', 'propertyName'],
      [':', 'punctuation'],
      ['"2s"', 'string'],
      ['}', 'bracket']
    ]);
  });

  it('leaves other requests and other keys as JSON: a search body\'s "query", a nested "query"', () => {
    const search = tokens('POST /products/_search\n{"query": "FROM x"}');
    expect(search).toContainEqual(['"FROM x"', 'string']);
    expect(search).not.toContainEqual(['FROM', 'keyword']);
    const nested = tokens(
      'POST /_query\n{"filter": {"query": "FROM x"}, "query": "ROW a = 1"}'
    );
    expect(nested).toContainEqual(['"FROM x"', 'string']);
    expect(nested).toContainEqual(['ROW', 'keyword']);
    // A request line after an ES|QL body starts plain again.
    expect(
      tokens('POST /_query\n{"query": "FROM x"}\nGET /_cat/indices').slice(-2)
    ).toEqual([
      ['GET', 'keyword'],
      ['/_cat/indices', 'url']
    ]);
  });
});

describe('auto-indent of a JSON body', () => {
  // The language as the editor loads it, asked where each line of a cell should start.
  const indentsOf = (cell: string): (number | null)[] => {
    const state = EditorState.create({
      doc: cell,
      extensions: [StreamLanguage.define(consoleTokens), indentUnit.of('  ')]
    });
    return Array.from({ length: state.doc.lines }, (_, i) =>
      getIndentation(state, state.doc.line(i + 1).from)
    );
  };

  it('indents one level per open bracket and puts a closing bracket back under its opener', () => {
    expect(
      indentsOf(
        'GET /products/_search\n{\n"query": {\n"match": {"name": "lamp"}\n}\n}'
      )
    ).toEqual([0, 0, 2, 4, 2, 0]);
  });

  it('starts again at the margin after each request line', () => {
    expect(
      indentsOf('GET /a\n{"size": 1}\nGET /b\n{\n"size": [\n1\n]\n}')
    ).toEqual([0, 0, 0, 0, 2, 4, 2, 0]);
  });
});
