/** The panel's tree: the kernel's open connections, saved profiles, and one connection's targets. */
import { profileAddress } from '../../connections/profile-url';
import type { PanelHandler } from './context';

export const connections: PanelHandler<'connections'> = async (_, context) => {
  const active = context.connections.active;
  return {
    type: 'connections',
    connections: context.connections.list().map(c => ({
      name: c.name,
      engine: c.engine,
      product: c.engineLabel,
      address: c.address,
      version: c.identity.version,
      ...(c.authSummary ? { auth: c.authSummary } : {}),
      active: c === active
    }))
  };
};

export const profiles: PanelHandler<'profiles'> = async (_, context) => {
  try {
    const file = await context.profiles().load();
    return {
      type: 'profiles',
      profiles: file.profiles.map(p => ({
        name: p.name,
        engine: p.engine,
        address: profileAddress(p)
      }))
    };
  } catch (err) {
    return {
      type: 'profiles',
      profiles: [],
      problem: (err as Error).message
    };
  }
};

export const targets: PanelHandler<'targets'> = async (request, context) => {
  const listing = await context
    .connection(request.connection)
    .driver.catalog.listTargets(context.signal);
  return {
    type: 'targets',
    connection: request.connection,
    targets: listing.targets,
    ...(listing.note ? { note: listing.note } : {})
  };
};
