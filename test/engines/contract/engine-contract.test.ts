/**
 * The engine contract: what every engine does for a user, over the kernel's real wire (execute,
 * complete and the panel's comm over ZeroMQ), against every engine target the run has. The
 * engines' words and paths come from engines.ts; the tests never ask which engine they face.
 */
import { catalogContract } from './behaviours/catalog';
import { connectContract } from './behaviours/connect';
import { consoleContract } from './behaviours/console';
import { exportContract } from './behaviours/export';
import { viewsContract } from './behaviours/views';
import { writesContract } from './behaviours/writes';
import { describeEachEngine } from './targets';

describeEachEngine(context => {
  describe('connect', () => connectContract(context));
  describe('console answers', () => consoleContract(context));
  describe('catalog', () => catalogContract(context));
  describe('views', () => viewsContract(context));
  describe('writes', () => writesContract(context));
  describe('export', () => exportContract(context));
});
