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
