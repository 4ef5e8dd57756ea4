/**
 * Typing grid edits by mapping and schema types, rule by rule: what each engine's field takes,
 * what is refused before sending and what the refusal says. (The comm suites check the same
 * rules end to end against the engines.)
 */
import type { FieldFacts } from '../../kernel/src/driver-core/edit-values';
import { Refusal } from '../../kernel/src/console/refusal';
import { dateMisfit } from '../../kernel/src/engines/elasticsearch/date-format';
import { typeElasticsearchValue } from '../../kernel/src/engines/elasticsearch/edit-typing';
import { typeTypesenseValue } from '../../kernel/src/engines/typesense/edit-typing';
import { exactJson } from '../../kernel/src/json/exact-integers';

/** A typed value as the request body carries it. */
const sent = (value: unknown): string =>
  exactJson(value as Parameters<typeof exactJson>[0]);

const field = (type: string, more: Partial<FieldFacts> = {}): FieldFacts => ({
  name: 'f',
  type,
  json: false,
  readOnly: false,
  ...more
});
const refusal = (run: () => unknown): Refusal => {
  try {
    run();
  } catch (err) {
    if (err instanceof Refusal && err.code === 'SEARCHBOOK_ERR_VALUE_REFUSED') {
      return err;
    }
    throw err;
  }
  throw new Error('not refused');
};

describe('Elasticsearch dates against the mapping format', () => {
  it.each([
    ['2024-05-17', undefined],
    ['2024-05-17T09:30:00Z', undefined],
    ['2024-05-17T09:30:00.123+02:00', undefined],
    ['2024', undefined],
    ['1715938200000', undefined],
    ['2024/05/17', 'yyyy/MM/dd'],
    ['17.05.2024 09:30', 'dd.MM.yyyy HH:mm'],
    ['2024-05-17', 'yyyy/MM/dd||strict_date'],
    ['20240517', 'basic_date'],
    ['17 May 2024', 'dd MMM yyyy']
  ])('%s fits %s', (text, format) => {
    expect(dateMisfit(text, format)).toBeUndefined();
  });

  it.each([
    ['17/05/2024', undefined],
    ['2024-02-30', undefined],
    ['2024-13-01', undefined],
    ['2024-05-17 09:30', undefined],
    ['2024-05-17', 'yyyy/MM/dd'],
    ['1715938200000', 'strict_date']
  ])('%s does not fit %s', (text, format) => {
    expect(dateMisfit(text, format)).toBe(
      format ?? 'strict_date_optional_time||epoch_millis'
    );
  });
});

describe('Elasticsearch numbers', () => {
  it('whole-number types keep their ranges; a long beyond 2^53 travels as a number literal with every digit', () => {
    expect(typeElasticsearchValue(field('byte'), '-128')).toBe(-128);
    expect(
      refusal(() => typeElasticsearchValue(field('byte'), '128')).message
    ).toContain('outside -128..127');
    expect(
      refusal(() => typeElasticsearchValue(field('short'), '1.5')).message
    ).toContain('fraction');
    expect(
      sent(typeElasticsearchValue(field('long'), '9223372036854775807'))
    ).toBe('9223372036854775807');
    expect(
      sent(typeElasticsearchValue(field('long'), '-9007199254740993'))
    ).toBe('-9007199254740993');
    expect(
      sent(
        typeElasticsearchValue(field('unsigned_long'), '18446744073709551615')
      )
    ).toBe('18446744073709551615');
    expect(
      sent(
        typeElasticsearchValue(
          field('long', { json: true }),
          '[9007199254740993, 1]'
        )
      )
    ).toBe('[9007199254740993,1]');
    expect(
      sent(typeElasticsearchValue(field('number'), '9007199254740993'))
    ).toBe('9007199254740993');
    expect(
      refusal(() => typeElasticsearchValue(field('unsigned_long'), '-1'))
        .message
    ).toContain('outside 0..');
    expect(typeElasticsearchValue(field('scaled_float'), '1e3')).toBe(1000);
    expect(
      refusal(() => typeElasticsearchValue(field('double'), '0x10')).message
    ).toContain('not a number');
  });

  it('a whole number past 2^53 written with a sign or leading zeros goes out as valid JSON with every digit; such JSON typed in a cell is refused', () => {
    expect(
      sent(typeElasticsearchValue(field('number'), '+9007199254740993'))
    ).toBe('9007199254740993');
    expect(
      sent(typeElasticsearchValue(field('number'), '009007199254740993'))
    ).toBe('9007199254740993');
    expect(
      sent(typeElasticsearchValue(field('long'), '+009007199254740993'))
    ).toBe('9007199254740993');
    // JSON has no leading zeros: the cell says where the fault is instead of sending text the engine cannot parse.
    expect(
      refusal(() =>
        typeElasticsearchValue(
          field('long', { json: true }),
          '[09007199254740993]'
        )
      ).message
    ).toContain('takes JSON');
    expect(
      refusal(() =>
        typeTypesenseValue(field('int64[]'), '[-09223372036854775807]')
      ).message
    ).toContain('takes JSON');
  });

  it('a whole number past 2^53 written with a zero fraction or an exponent keeps every digit; one with a fraction is refused, not rounded to a whole number', () => {
    expect(
      sent(typeElasticsearchValue(field('long'), '9007199254740993.0'))
    ).toBe('9007199254740993');
    expect(
      sent(typeElasticsearchValue(field('long'), '9.007199254740993e15'))
    ).toBe('9007199254740993');
    expect(
      sent(typeTypesenseValue(field('int64'), '-90071992547409930e-1'))
    ).toBe('-9007199254740993');
    expect(
      refusal(() => typeElasticsearchValue(field('long'), '9007199254740993.5'))
        .message
    ).toContain('has a fraction');
    expect(
      refusal(() => typeElasticsearchValue(field('integer'), '1e-400')).message
    ).toContain('has a fraction');
    expect(typeElasticsearchValue(field('integer'), '1.5e3')).toBe(1500);
    expect(typeElasticsearchValue(field('long'), '0e99999999')).toBe(0);
    expect(
      refusal(() => typeElasticsearchValue(field('long'), '1e-99999999'))
        .message
    ).toContain('has a fraction');
  });

  it('a cleared number, date or boolean cell stores null; a cleared keyword keeps the empty string', () => {
    expect(typeElasticsearchValue(field('integer'), '')).toBeNull();
    expect(typeElasticsearchValue(field('date'), ' ')).toBeNull();
    expect(typeElasticsearchValue(field('keyword'), '')).toBe('');
  });

  it('a field that held an array takes JSON, whole numbers in whole-number arrays; geo points as text or JSON', () => {
    expect(
      typeElasticsearchValue(field('keyword', { json: true }), '["a","b"]')
    ).toEqual(['a', 'b']);
    expect(
      refusal(() =>
        typeElasticsearchValue(field('integer', { json: true }), '[1, 2.5]')
      ).message
    ).toContain('2.5 has a fraction');
    expect(typeElasticsearchValue(field('geo_point'), '41.1,-71.3')).toBe(
      '41.1,-71.3'
    );
    expect(
      typeElasticsearchValue(field('geo_point'), '{"lat": 41.1, "lon": -71.3}')
    ).toEqual({ lat: 41.1, lon: -71.3 });
  });

  it('a field only the documents hold is typed by what its column held', () => {
    expect(typeElasticsearchValue(field('number'), '4.5')).toBe(4.5);
    expect(typeElasticsearchValue(field('boolean'), 'TRUE')).toBe(true);
    expect(typeElasticsearchValue(field('string'), '42')).toBe('42');
    expect(
      refusal(() => typeElasticsearchValue(field('object'), '{"a": }')).message
    ).toMatch(/line 1, column 7/);
  });
});

describe('Typesense schema types', () => {
  it('int32 and int64 in range, an int64 beyond 2^53 as a number literal with every digit, float, bool, typed arrays', () => {
    expect(typeTypesenseValue(field('int32'), '2147483647')).toBe(2147483647);
    expect(
      refusal(() => typeTypesenseValue(field('int32'), '2147483648')).message
    ).toContain('outside');
    expect(sent(typeTypesenseValue(field('int64'), '9007199254740993'))).toBe(
      '9007199254740993'
    );
    expect(
      sent(typeTypesenseValue(field('int64[]'), '[9223372036854775807]'))
    ).toBe('[9223372036854775807]');
    expect(typeTypesenseValue(field('float'), '-0.5')).toBe(-0.5);
    expect(
      refusal(() => typeTypesenseValue(field('bool'), '1')).message
    ).toContain('true or false');
    expect(typeTypesenseValue(field('int32[]'), '[1, 2]')).toEqual([1, 2]);
    expect(
      refusal(() => typeTypesenseValue(field('int32[]'), '[1, 2.5]')).message
    ).toContain('a whole number');
    expect(
      refusal(() => typeTypesenseValue(field('bool[]'), '["true"]')).message
    ).toContain('true or false');
    expect(typeTypesenseValue(field('geopoint'), '[48.85, 2.35]')).toEqual([
      48.85, 2.35
    ]);
    expect(typeTypesenseValue(field('string'), ' spaced ')).toBe(' spaced ');
  });

  it('a whole number past 2^53 in a typed array is a number: a float[] takes it, a string[] or bool[] refuses it with its digits, an int32[] with its range', () => {
    expect(
      sent(typeTypesenseValue(field('float[]'), '[9007199254740993, 0.5]'))
    ).toBe('[9007199254740993,0.5]');
    const asString = refusal(() =>
      typeTypesenseValue(field('string[]'), '["a", 9007199254740993]')
    ).message;
    expect(asString).toBe(
      'f (string[]): 9007199254740993 is not a string; every element of a string[] field must be a string.'
    );
    expect(
      refusal(() => typeTypesenseValue(field('bool[]'), '[9007199254740993]'))
        .message
    ).toBe(
      'f (bool[]): 9007199254740993 is not true or false; every element of a bool[] field must be true or false.'
    );
    expect(
      refusal(() =>
        typeTypesenseValue(field('int32[]'), '[1, 9007199254740993]')
      ).message
    ).toBe(
      'f (int32[]): 9007199254740993 is outside -2147483648..2147483647, the range of int32.'
    );
    expect(
      refusal(() => typeTypesenseValue(field('int32[]'), '[2147483648]'))
        .message
    ).toContain('outside -2147483648..2147483647');
    expect(
      refusal(() =>
        typeTypesenseValue(field('int64[]'), '[9223372036854775808]')
      ).message
    ).toContain('outside');
    expect(
      refusal(() => typeTypesenseValue(field('int64[]'), '[1e21]')).message
    ).toContain('1e+21 is outside');
  });
});
