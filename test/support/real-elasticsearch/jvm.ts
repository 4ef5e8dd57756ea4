import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LAUNCHERS_DIR,
  REAL_FLAVOURS,
  REPO_ROOT,
  type RealFlavourId
} from './flavours';

/** How to start a flavour's JVM: the java to run, the options its engine needs, its environment. */
export interface NodeJvm {
  command: string;
  options: string[];
  env: NodeJS.ProcessEnv;
}

const SETUP_SCRIPT = join(REPO_ROOT, 'scripts', 'setup-real-elasticsearch.sh');

const COMMON_OPTIONS = [
  '-Xms256m',
  '-Xmx256m',
  // One GC thread and no parallel phases: the machine's two cores are shared by many processes.
  '-XX:+UseSerialGC',
  '-XX:-UsePerfData',
  '-Djava.awt.headless=true',
  '-Dfile.encoding=UTF-8',
  '-Dlog4j2.formatMsgNoLookups=true'
];

/** What the tar distributions' launchers set: `GET /` reports them. */
const DISTRIBUTION_OPTIONS = {
  elasticsearch: [
    '-Des.distribution.flavor=default',
    '-Des.distribution.type=tar'
  ],
  opensearch: ['-Dopensearch.distribution.type=tar']
} as const;

/**
 * The JVM of a built flavour, or why it cannot run here. Java 17 flavours run the `java` on
 * PATH; Elasticsearch 9.x and OpenSearch 3.x run on the JDK 21+ their launcher was built with
 * (JAVA_HOME set for that node only), Elasticsearch with the native zstd folder the build made.
 */
export function nodeJvm(flavour: RealFlavourId): NodeJvm | { skipped: string } {
  const spec = REAL_FLAVOURS[flavour];
  const options = [...COMMON_OPTIONS, ...DISTRIBUTION_OPTIONS[spec.product]];
  if (spec.java === 17) {
    return { command: 'java', options, env: process.env };
  }
  const target = join(LAUNCHERS_DIR, spec.module, 'target');
  const skipped = join(target, 'skipped.txt');
  if (existsSync(skipped)) {
    const product =
      spec.product === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
    return {
      skipped: `${product} ${spec.version} is skipped: ${readFileSync(skipped, 'utf8').trim()}`
    };
  }
  const javaHome = readFileSync(join(target, 'java-home'), 'utf8').trim();
  if (spec.product === 'opensearch') {
    return {
      command: join(javaHome, 'bin', 'java'),
      // Lucene 10 maps its files through the foreign-memory API: allowed, not warned about.
      options: [...options, '--enable-native-access=ALL-UNNAMED'],
      env: { ...process.env, JAVA_HOME: javaHome }
    };
  }
  return {
    command: join(javaHome, 'bin', 'java'),
    options: [
      ...options,
      // Elasticsearch 9.x compresses with zstd through its native library (best_compression
      // indices fail without it); it looks for libzstd.so where this names, a link to Debian's.
      `-Des.nativelibs.path=${join(target, 'nativelibs')}`,
      // Elastic's SIMD vector library is not on Maven Central; without this switch its absence
      // turns all native access off again, zstd included.
      '-Dorg.elasticsearch.nativeaccess.enableVectorLibrary=false',
      '--enable-native-access=ALL-UNNAMED'
    ],
    env: { ...process.env, JAVA_HOME: javaHome }
  };
}

let jdk21Finding: { home: string } | { missing: string } | undefined;

/**
 * Why a flavour that needs Java 21 cannot run here (no such JDK), or undefined; asked of the
 * setup script without building, so a test file can skip its 9.x and 3.x suites when it loads.
 */
export function java21Missing(flavour: RealFlavourId): string | undefined {
  if (REAL_FLAVOURS[flavour].java === 17) {
    return undefined;
  }
  if (!jdk21Finding) {
    const found = spawnSync('bash', [SETUP_SCRIPT, '--find-jdk21'], {
      encoding: 'utf8'
    });
    jdk21Finding =
      found.status === 0
        ? { home: found.stdout.trim() }
        : {
            missing:
              found.stderr.trim() ||
              `the JDK 21 search failed (exit ${found.status})`
          };
  }
  return 'missing' in jdk21Finding ? jdk21Finding.missing : undefined;
}
