/** Loads the Typesense engineer's sample data (books, notes) into a Typesense sandbox. */
import { loadSampleData } from './data/generate-books';
import type { TypesenseSandbox } from './typesense';

export function generateBooksSample(ts: TypesenseSandbox): string {
  const n = loadSampleData(ts);
  return `${n.books} books, ${n.notes} notes`;
}
