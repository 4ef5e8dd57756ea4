import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The real Elasticsearch and OpenSearch nodes the tests can start (real-elasticsearch/ builds
 * each one). `java`: the oldest Java release that runs it (21: a JDK found beside the default
 * Java, see jvm.ts); `lucene`: the Lucene version its `GET /` reports.
 */
export const REAL_FLAVOURS = {
  'es-7.17': {
    product: 'elasticsearch',
    module: 'es-7.17',
    version: '7.17.29',
    lucene: '8.11.3',
    java: 17,
    security: false,
    tls: false,
    classpaths: ['classpath']
  },
  'es-8.19': {
    product: 'elasticsearch',
    module: 'es-8.19',
    version: '8.19.21',
    lucene: '9.12.2',
    java: 17,
    security: false,
    tls: false,
    classpaths: ['classpath']
  },
  'es-8.19-security': {
    product: 'elasticsearch',
    module: 'es-8.19',
    version: '8.19.21',
    lucene: '9.12.2',
    java: 17,
    security: true,
    tls: false,
    classpaths: ['classpath', 'classpath-security']
  },
  // HTTPS (xpack.security.http.ssl) with a CA and certificate the launcher generates per node.
  'es-8.19-tls': {
    product: 'elasticsearch',
    module: 'es-8.19',
    version: '8.19.21',
    lucene: '9.12.2',
    java: 17,
    security: true,
    tls: true,
    classpaths: ['classpath', 'classpath-security']
  },
  'es-9.5': {
    product: 'elasticsearch',
    module: 'es-9.5',
    version: '9.5.3',
    lucene: '10.5.1',
    java: 21,
    security: false,
    tls: false,
    classpaths: ['classpath']
  },
  'es-9.5-security': {
    product: 'elasticsearch',
    module: 'es-9.5',
    version: '9.5.3',
    lucene: '10.5.1',
    java: 21,
    security: true,
    tls: false,
    classpaths: ['classpath', 'classpath-security']
  },
  // OpenSearch's own server and modules, without its security plugin.
  'opensearch-2.19': {
    product: 'opensearch',
    module: 'opensearch-2.19',
    version: '2.19.1',
    lucene: '9.12.1',
    java: 17,
    security: false,
    tls: false,
    classpaths: ['classpath']
  },
  // OpenSearch's security plugin: HTTP Basic against its internal users (admin and a reader
  // that may not write), over HTTPS with a CA and certificate the launcher generates per node.
  'opensearch-2.19-security': {
    product: 'opensearch',
    module: 'opensearch-2.19',
    version: '2.19.1',
    lucene: '9.12.1',
    java: 17,
    security: true,
    tls: true,
    classpaths: ['classpath', 'classpath-security']
  },
  // OpenSearch 3.x (Lucene 10, Java 21+), its own server and modules; no security plugin.
  'opensearch-3.3': {
    product: 'opensearch',
    module: 'opensearch-3.3',
    version: '3.3.2',
    lucene: '10.3.1',
    java: 21,
    security: false,
    tls: false,
    classpaths: ['classpath']
  }
} as const;

export type RealFlavourId = keyof typeof REAL_FLAVOURS;
export const REAL_FLAVOUR_IDS = Object.keys(REAL_FLAVOURS) as RealFlavourId[];

/**
 * The elastic user's password on secured test engines, sandbox and real node alike (a test
 * value; the tests check that it never shows in a message).
 */
export const ES_TEST_PASSWORD = 'es-Pa55-secret-9f3b';

/** The all-powerful user a secured node's password belongs to: each product names its own. */
export function superuser(flavour: RealFlavourId): 'elastic' | 'admin' {
  return REAL_FLAVOURS[flavour].product === 'opensearch' ? 'admin' : 'elastic';
}

/** The password of the secured OpenSearch node's `reader` user (reads every index, writes none). */
export const OPENSEARCH_READER_PASSWORD = 'os-Reader-secret-4c7e';

/** The checkout's root, found upwards (these files run from test/ under jest and from dist/ by hand). */
export const REPO_ROOT = ((): string => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'real-elasticsearch', 'pom.xml'))) {
      return dir;
    }
  }
  throw new Error(`no real-elasticsearch/pom.xml above ${__dirname}`);
})();
export const LAUNCHERS_DIR = join(REPO_ROOT, 'real-elasticsearch');

export function isRealFlavourId(value: string): value is RealFlavourId {
  return Object.hasOwn(REAL_FLAVOURS, value);
}
