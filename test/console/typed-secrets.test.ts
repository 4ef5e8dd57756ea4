import { withoutTypedSecrets as withoutAny } from '../../contracts/typed-secrets';
import { TYPED_SECRET_KINDS } from '../../kernel/src/connections/engine-options';
import { TypedSecretError } from '../../kernel/src/connections/connect-args';
import { parseConnectCommand } from '../../kernel/src/connections/connect-command';

/** As the kernel's history and the extension clean a cell: with the registered engines' own kinds. */
const withoutTypedSecrets = (cell: string) =>
  withoutAny(cell, TYPED_SECRET_KINDS);

describe('secrets typed into %connect lines', () => {
  test.each([
    [
      '%connect elasticsearch http://h:9200 user=elastic password=hunter2 name=x',
      '%connect elasticsearch http://h:9200 user=elastic name=x'
    ],
    ['%connect typesense h:8108 key=abc123', '%connect typesense h:8108'],
    [
      '%connect elasticsearch https://elastic:hunter2@h:9200',
      '%connect elasticsearch https://elastic@h:9200'
    ],
    [
      '  %connect elasticsearch http://h password= name=x',
      '  %connect elasticsearch http://h name=x'
    ],
    [
      '%CONNECT elasticsearch http://h:9200 user=elastic password=hunter2',
      '%CONNECT elasticsearch http://h:9200 user=elastic'
    ],
    ['%Connect typesense h:8108 Key=abc123', '%Connect typesense h:8108'],
    [
      '%connect elasticsearch http://h:9200 user=elastic PASSWORD=hunter2 name=x',
      '%connect elasticsearch http://h:9200 user=elastic name=x'
    ],
    ['%connect typesense h:8108 key=\tabc123', '%connect typesense h:8108'],
    [
      '%connect typesense h:8108 key= abc123 name=t',
      '%connect typesense h:8108 name=t'
    ],
    ['%connect typesense h:8108 key =abc123', '%connect typesense h:8108'],
    [
      '%connect typesense h:8108 key = abc123 skip_verify',
      '%connect typesense h:8108 skip_verify'
    ],
    [
      '%connect elasticsearch http://h:9200 password= skip_verify',
      '%connect elasticsearch http://h:9200 skip_verify'
    ],
    [
      '%connect opensearch https://h auth=aws-sigv4 aws_secret_access_key=wJalr/K7MDENG region=eu-west-1',
      '%connect opensearch https://h auth=aws-sigv4 region=eu-west-1'
    ],
    [
      '%connect opensearch https://h auth=aws-sigv4 AWS_SESSION_TOKEN=IQoJb3JpZ2lu SECRET_KEY=wJalr',
      '%connect opensearch https://h auth=aws-sigv4'
    ],
    [
      '%connect opensearch https://h auth=aws-sigv4 aws_access_key_id=AKIAEXAMPLE',
      '%connect opensearch https://h auth=aws-sigv4'
    ]
  ])('%j loses its secret', (line, cleaned) => {
    expect(withoutTypedSecrets(`# keep me\n${line}\nGET /x?key=1`)).toBe(
      `# keep me\n${cleaned}\nGET /x?key=1`
    );
  });

  test('${env:NAME} references and other lines stay as written', () => {
    const cell =
      '%connect elasticsearch http://h:9200 password=${env:ES_PASSWORD}\n%set key = "password=x"\nGET /a\n{"key": "v"}';
    expect(withoutTypedSecrets(cell)).toBe(cell);
  });
});

describe('the kernel refuses what the removal removes', () => {
  test.each([
    'elasticsearch http://h:9200 user=elastic PASSWORD=hunter2',
    'typesense h:8108 Key=abc123',
    'typesense h:8108 key=\tabc123',
    'typesense h:8108 key = abc123',
    'elasticsearch http://h:9200 user=elastic password= name=x',
    'opensearch https://h auth=aws-sigv4 secret_access_key=abc123'
  ])('%j', args => {
    expect(() => parseConnectCommand(args, () => undefined)).toThrow(
      TypedSecretError
    );
    expect(withoutTypedSecrets(`%connect ${args}`)).not.toMatch(
      /hunter2|abc123|password=|key\b/i
    );
  });

  test('an AWS credential is refused even as ${env:NAME}: auth=aws-sigv4 reads only the AWS variables and files', () => {
    expect(() =>
      parseConnectCommand(
        'opensearch https://h auth=aws-sigv4 aws_secret_access_key=${env:MY_SECRET}',
        () => 'value'
      )
    ).toThrow(/AWS_SECRET_ACCESS_KEY .*~\/\.aws\/credentials/);
  });

  test('a secret option in capitals that holds ${env:NAME} is read as the option', () => {
    const command = parseConnectCommand(
      'typesense h:8108 KEY=${env:TS_KEY}',
      name => (name === 'TS_KEY' ? 'ts-key-value' : undefined)
    );
    expect(command.kind === 'address' && command.args.key).toBe('ts-key-value');
  });
});
