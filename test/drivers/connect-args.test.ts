import {
  ConnectArgsError,
  parseConnectArgs
} from '../../kernel/src/connections/connect-args';
import { secretEnv, SECRETS } from './helpers';

const parse = (line: string) => parseConnectArgs(line, secretEnv());

describe('%connect ssl= and the address scheme', () => {
  it('derives the mode from the scheme and the scheme from the mode', () => {
    expect(parse('elasticsearch http://h:9200')).toMatchObject({
      url: 'http://h:9200',
      ssl: 'disabled',
      enginePort: false
    });
    expect(parse('elasticsearch https://h:9200')).toMatchObject({
      ssl: 'required'
    });
    expect(parse('elasticsearch h ssl=verify-ca')).toMatchObject({
      url: 'https://h',
      ssl: 'verify-ca',
      enginePort: true
    });
    expect(parse('elasticsearch h')).toMatchObject({
      url: 'http://h',
      ssl: 'disabled',
      enginePort: true
    });
    expect(
      parse('elasticsearch h:9201 skip_verify ssl=required')
    ).toMatchObject({
      url: 'https://h:9201',
      skip_verify: true,
      enginePort: false
    });
  });

  it.each([
    [
      'elasticsearch http://h:9200 ssl=required',
      /address says http:\/\/ but ssl=required says HTTPS/
    ],
    [
      'elasticsearch https://h:9200 ssl=disabled',
      /address says https:\/\/ but ssl=disabled says plain HTTP/
    ],
    ['elasticsearch h ssl=sometimes', /ssl: Invalid option/],
    ['elasticsearch h sll=required', /"sll" is not an option of %connect/]
  ])('refuses %s', (line, message) => {
    expect(() => parse(line)).toThrow(ConnectArgsError);
    expect(() => parse(line)).toThrow(message);
  });

  it('never echoes a resolved secret in a refusal', () => {
    try {
      parse(
        'elasticsearch https://h ssl=disabled password=${env:ES_PASSWORD} key=${env:TS_API_KEY}'
      );
    } catch (err) {
      expect((err as Error).message).not.toContain(SECRETS.ES_PASSWORD);
      expect((err as Error).message).not.toContain(SECRETS.TS_API_KEY);
    }
    expect.assertions(2);
  });
});
