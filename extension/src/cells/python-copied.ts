/** What a notification says once requests were copied as Python: how many, and what to install. */
export function pythonCopiedMessage(code: string, requests: number): string {
  const what =
    requests === 1
      ? 'Copied the request as Python.'
      : `Copied ${requests} requests as Python.`;
  const needs = /^# Needs: (pip install .+)$/m.exec(code)?.[1];
  const reads = [...code.matchAll(/os\.environ\["([^"]+)"\]/g)].map(
    match => match[1] as string
  );
  const variables = [...new Set(reads)];
  return [
    what,
    needs ? `It needs ${needs}.` : '',
    variables.length
      ? `It reads ${variables.join(', ')} from the environment.`
      : ''
  ]
    .filter(Boolean)
    .join(' ');
}
