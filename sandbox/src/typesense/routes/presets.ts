/** `/presets` and `/stopwords`: named search settings that searches name with `preset=` and `stopwords=`. */
import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson } from '../json';
import type { Router } from '../router';
import { parseStopwords, stopwordsView } from '../stopwords';
import { parseJsonBody } from './body';

export function registerPresets(router: Router, engine: Engine): void {
  const preset = (name: string): unknown => {
    if (!engine.presets.has(name)) {
      throw new ApiError(404, 'Not found.');
    }
    return engine.presets.get(name);
  };
  router
    .add('GET', '/presets', () =>
      json(
        200,
        sortedJson({
          presets: [...engine.presets].map(([name, value]) => ({ name, value }))
        })
      )
    )
    .add('GET', '/presets/:name', ctx => {
      const name = ctx.params.name ?? '';
      return json(200, sortedJson({ name, value: preset(name) }));
    })
    .add('PUT', '/presets/:name', ctx => {
      const body = parseJsonBody(ctx.body);
      const name = ctx.params.name ?? '';
      if (!isPlainObject(body) || body.value === undefined) {
        throw new ApiError(400, 'Parameter `value` is required.');
      }
      engine.presets.set(name, body.value);
      return json(200, sortedJson({ ...body, name }));
    })
    .add('DELETE', '/presets/:name', ctx => {
      const name = ctx.params.name ?? '';
      const value = preset(name);
      engine.presets.delete(name);
      return json(200, sortedJson({ name, value }));
    });

  const stopwordSet = (name: string) => {
    const set = engine.stopwords.get(name);
    if (!set) {
      throw new ApiError(404, `Stopword \`${name}\` not found.`);
    }
    return set;
  };
  router
    .add('GET', '/stopwords', () =>
      json(
        200,
        sortedJson({
          stopwords: [...engine.stopwords.values()].map(stopwordsView)
        })
      )
    )
    .add('GET', '/stopwords/:name', ctx =>
      json(
        200,
        sortedJson({
          stopwords: stopwordsView(stopwordSet(ctx.params.name ?? ''))
        })
      )
    )
    .add('PUT', '/stopwords/:name', ctx => {
      const body = parseJsonBody(ctx.body);
      const name = ctx.params.name ?? '';
      engine.stopwords.set(name, parseStopwords(name, body));
      return json(
        200,
        sortedJson({ ...(body as Record<string, unknown>), id: name })
      );
    })
    .add('DELETE', '/stopwords/:name', ctx => {
      const name = ctx.params.name ?? '';
      stopwordSet(name);
      engine.stopwords.delete(name);
      return json(200, sortedJson({ id: name }));
    });
}
