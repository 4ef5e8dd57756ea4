/**
 * The side panel's resource requests (aliases, synonym and curation sets, presets, stopwords,
 * schemas), answered from the driver's resources capability.
 */
import type { Driver } from '../engine/driver';
import type { ResourceAdmin } from '../engine/capabilities/resources';
import type {
  ResourceReply,
  ResourceRequest
} from '../../../contracts/resource-protocol';

type ResourceReplyBody = ResourceReply extends infer R
  ? R extends ResourceReply
    ? Omit<R, 'v' | 'requestId'>
    : never
  : never;

export async function answerResource(
  request: ResourceRequest,
  driver: Driver,
  signal: AbortSignal
): Promise<ResourceReplyBody> {
  const { connection } = request;
  const resources = resourcesOf(driver, connection);
  switch (request.type) {
    case 'resourceKinds':
      return {
        type: 'resourceKinds',
        connection,
        kinds: await resources.kinds(signal)
      };
    case 'resourceList':
      return {
        type: 'resourceList',
        connection,
        target: request.target,
        entries: await resources.list(request.target, signal)
      };
    case 'resourcePlan':
      return {
        type: 'resourcePlan',
        connection,
        request: await resources.plan(request.change, signal)
      };
    case 'resourceApply': {
      const { request: sent, answer } = await resources.apply(
        request.change,
        signal
      );
      return { type: 'resourceApplied', connection, request: sent, answer };
    }
    case 'collectionSchema':
      return {
        type: 'collectionSchema',
        connection,
        schema: await resources.schema(request.collection, signal)
      };
  }
}

function resourcesOf(driver: Driver, connection: string): ResourceAdmin {
  if (!driver.resources) {
    throw new Error(
      `The connection "${connection}" has no aliases, synonyms, presets or stopwords to manage here.`
    );
  }
  return driver.resources;
}
