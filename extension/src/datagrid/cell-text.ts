import { ExactNumber, exactJson } from '@searchbook/contracts/exact-json';
/**
 * How a document value reads in one grid cell. The grid paints text on a canvas, so nothing
 * here is ever markup; line breaks become a visible mark to keep rows one line high.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value.replace(/\r\n|\r|\n/g, ' ⏎ ');
  }
  if (
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof ExactNumber
  ) {
    return String(value);
  }
  return exactJson(value);
}

/** The full value for the detail view: pretty JSON for structures, the string itself otherwise. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (typeof value === 'string') {
    return value;
  }
  return exactJson(value, 2);
}

/** A value as one TSV field: tabs and line breaks would split the row, so they are escaped. */
export function tsvField(value: unknown): string {
  return cellText(value).replace(/\t/g, '\\t').replace(/ ⏎ /g, '\\n');
}

const wholeNumber = new Intl.NumberFormat(undefined, {
  maximumFractionDigits: 0
});
// Cut, never rounded: 19.999 reads 19.99…, not 20, so what is painted is always the value's start.
const fraction = new Intl.NumberFormat(undefined, {
  maximumFractionDigits: 2,
  roundingMode: 'trunc'
} as Intl.NumberFormatOptions);
const small = new Intl.NumberFormat(undefined, {
  maximumSignificantDigits: 3,
  roundingMode: 'trunc'
} as Intl.NumberFormatOptions);

/** The digits after the point and the significant digits of a number's shortest text. */
function digitsOf(value: number): { decimals: number; significant: number } {
  const [mantissa = '', exponent = '0'] = Math.abs(value).toString().split('e');
  const [whole = '', after = ''] = mantissa.split('.');
  return {
    decimals: Math.max(0, after.length - Number(exponent)),
    significant: (whole + after).replace(/^0+/, '').length
  };
}

/**
 * A statistic as people read one, in the browser's locale: `1234567` as `1,234,567`,
 * `252.25223404255382` as `252.25…`, `0.000123456` as `0.000123…`. A value with more digits
 * than the cell shows is cut and ends in "…", so no cell reads as a value the engine did not
 * send; copies and the value view keep the exact value.
 */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) {
    return String(value);
  }
  if (Number.isInteger(value)) {
    return wholeNumber.format(value);
  }
  const { decimals, significant } = digitsOf(value);
  if (Math.abs(value) >= 1) {
    return fraction.format(value) + (decimals > 2 ? '…' : '');
  }
  return small.format(value) + (significant > 3 ? '…' : '');
}
