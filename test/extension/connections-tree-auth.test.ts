/** @jest-environment jsdom */
/**
 * The panel's tree says how a signed connection authenticates (`auth=aws-sigv4 region=...`) on
 * the connection's row and in its accessible name; other connections say nothing of it.
 */
import { ConnectionsTree } from '../../extension/src/sidebar/connections-tree';

const AUTH =
  'auth=aws-sigv4 region=eu-west-1 service=es (access key …ST42 from the environment (AWS_ACCESS_KEY_ID))';

it('shows a signed connection’s auth on hover and in its name, and nothing for one without', () => {
  const tree = new ConnectionsTree({ open: () => undefined });
  tree.setNodes([
    {
      connection: {
        name: 'aws',
        engine: 'elasticsearch',
        product: 'OpenSearch',
        address: 'https://search-x.eu-west-1.es.amazonaws.com',
        version: '2.19.1',
        auth: AUTH,
        active: true
      },
      targets: [],
      loading: false
    },
    {
      connection: {
        name: 'local',
        engine: 'elasticsearch',
        address: 'http://localhost:9200',
        version: '8.19.0',
        active: false
      },
      targets: [],
      loading: false
    }
  ]);
  const [signed, plain] = [
    ...tree.node.querySelectorAll<HTMLElement>('.searchbook-Tree-connection')
  ];
  expect(signed?.getAttribute('aria-label')).toBe(
    `aws · opensearch 2.19.1 · https://search-x.eu-west-1.es.amazonaws.com · ${AUTH}`
  );
  expect(
    signed?.querySelector<HTMLElement>('.searchbook-Tree-row')?.title
  ).toBe(AUTH);
  expect(plain?.getAttribute('aria-label')).toBe(
    'local · elasticsearch 8.19.0 · http://localhost:9200'
  );
  expect(plain?.querySelector<HTMLElement>('.searchbook-Tree-row')?.title).toBe(
    ''
  );
});
