import { KEEP_MORE_ROWS } from '@searchbook/contracts/output-rows';
import {
  partialFailureHeadline,
  partialFailureText,
  type ResponseInfo
} from '@searchbook/contracts/mime-types';

export interface Counts {
  total?: { value: number; relation: 'eq' | 'gte' };
  shown: number;
  omitted: number;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** Who answered what and how: `es · GET /products/_search · 200 · 12 ms · ≥10,000 total · 20 shown` (no counts for a JSON answer). */
export function statusText(info: ResponseInfo, counts?: Counts): string {
  const parts = [
    info.connection,
    `${info.method} ${info.path}`,
    String(info.status),
    `${Math.round(info.elapsedMs)} ms`
  ];
  const failed = partialFailureHeadline(info.partialFailures);
  if (failed) {
    parts.push(`⚠ ${failed}`);
  }
  if (!counts) {
    return parts.join(' · ');
  }
  if (counts.total) {
    parts.push(
      `${counts.total.relation === 'gte' ? '≥' : ''}${numberFormat.format(counts.total.value)} total`
    );
  }
  parts.push(`${numberFormat.format(counts.shown)} shown`);
  return parts.join(' · ');
}

/** The notice under a grid whose rows did not all go into the notebook. */
export function omittedText(omitted: number): string {
  return omitted > 0
    ? `${numberFormat.format(omitted)} more rows were left out of the notebook to keep it small; ${KEEP_MORE_ROWS} and run the cell again to keep more, or page through the rest with the request's own paging parameters.`
    : '';
}

/** The warning of a partial failure with its first reasons, shown under the status line; empty when nothing failed. */
export function warningText(info: ResponseInfo): string {
  return partialFailureText(info.partialFailures);
}
