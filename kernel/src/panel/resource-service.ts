/**
 * The side panel's resource requests (aliases, synonym and curation sets, presets, stopwords,
 * schemas), answered from the driver's resources capability.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Driver } from '../driver-core/driver';
import type { ResourceAdmin } from '../driver-core/capabilities/resources';
import type {
  ResourceChange,
  ResourceEntry,
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
      const conflict = await changedMeanwhile(
        request.change,
        resources,
        signal
      );
      if (conflict !== undefined) {
        return {
          type: 'resourceConflict',
          connection,
          name: request.change.name,
          current: conflict
        };
      }
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

/**
 * When the change says what its form started from: what the server holds now if that differs
 * (null for an entry that is gone), else undefined. Read just before sending, so a form kept
 * open while another tab or a cell changed the entry never writes over what it did not show.
 */
async function changedMeanwhile(
  change: ResourceChange,
  resources: ResourceAdmin,
  signal: AbortSignal
): Promise<ResourceEntry | null | undefined> {
  if (change.basis === undefined) {
    return undefined;
  }
  const entries = await resources.list(change.target, signal);
  const current = entries.find(e => e.name === change.name) ?? null;
  if (change.basis === null) {
    return current ?? undefined;
  }
  if (current === null) {
    return null;
  }
  return isDeepStrictEqual(current.value, change.basis.value)
    ? undefined
    : current;
}

function resourcesOf(driver: Driver, connection: string): ResourceAdmin {
  if (!driver.resources) {
    throw new Error(
      `The connection "${connection}" has no aliases, synonyms, presets or stopwords to manage here.`
    );
  }
  return driver.resources;
}
