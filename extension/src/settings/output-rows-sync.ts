import { searchbookSettings } from './searchbook-settings';

/** What of a panel client this needs (the client calls tellOutputRows as its comm opens). */
interface OutputRowsClient {
  readonly isClosed: boolean;
  request(
    message: { type: 'outputRows'; rows: number | null },
    expect: 'outputRows'
  ): Promise<unknown>;
  readonly failed: { connect(slot: () => void): unknown };
}

/**
 * Tells the kernel behind `client` searchbook's "Rows kept in notebook outputs" now and each
 * time it changes, while the comm lasts: the kernel caps its outputs, so it must hear it.
 */
export function tellOutputRows(client: OutputRowsClient): void {
  let told: number | null | undefined;
  const tell = (): void => {
    const rows = searchbookSettings.current.rowsKeptInOutputs;
    if (client.isClosed || rows === told) {
      return;
    }
    told = rows;
    void client
      .request({ type: 'outputRows', rows }, 'outputRows')
      .catch((err: unknown) => {
        // A comm closed meanwhile (a short-lived copy-as-curl one) has nothing left to cap.
        if (!client.isClosed) {
          console.warn(
            `searchbook: the kernel did not take Rows kept in notebook outputs: ${String(err)}`
          );
        }
      });
  };
  searchbookSettings.changed.connect(tell);
  client.failed.connect(() => searchbookSettings.changed.disconnect(tell));
  tell();
}
