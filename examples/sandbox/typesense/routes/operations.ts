import type { Engine } from '../engine';
import { json } from '../http-io';
import { sortedJson } from '../json';
import { systemMetrics } from '../metrics';
import type { Router } from '../router';

export function registerOperations(router: Router, engine: Engine): void {
  router
    .add('GET', '/health', () => (engine.ready ? json(200, '{"ok":true}') : json(503, '{"ok":false}')), {
      public: true,
    })
    .add('GET', '/debug', () => json(200, sortedJson({ state: 1, version: engine.version.text })))
    .add('GET', '/metrics.json', () => json(200, sortedJson(systemMetrics())))
    .add('GET', '/stats.json', () => json(200, sortedJson(engine.stats.snapshot(engine.feat))))
    .add('POST', '/operations/db/compact', () => json(200, '{"success":true}'))
    .add('POST', '/operations/cache/clear', () => json(200, '{"success":true}'))
    .add('POST', '/operations/snapshot', () => json(201, '{"success":true}'));
}
