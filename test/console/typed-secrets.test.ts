import { withoutTypedSecrets } from '../../kernel/src/connections/typed-secrets';

describe('secrets typed into %connect lines', () => {
  test.each([
    ['%connect elasticsearch http://h:9200 user=elastic password=hunter2 name=x', '%connect elasticsearch http://h:9200 user=elastic name=x'],
    ['%connect typesense h:8108 key=abc123', '%connect typesense h:8108'],
    ['%connect elasticsearch https://elastic:hunter2@h:9200', '%connect elasticsearch https://elastic@h:9200'],
    ['  %connect elasticsearch http://h password= name=x', '  %connect elasticsearch http://h name=x'],
  ])('%j loses its secret', (line, cleaned) => {
    expect(withoutTypedSecrets(`# keep me\n${line}\nGET /x?key=1`)).toBe(`# keep me\n${cleaned}\nGET /x?key=1`);
  });

  test('${env:NAME} references and other lines stay as written', () => {
    const cell = '%connect elasticsearch http://h:9200 password=${env:ES_PASSWORD}\n%set key = "password=x"\nGET /a\n{"key": "v"}';
    expect(withoutTypedSecrets(cell)).toBe(cell);
  });
});
