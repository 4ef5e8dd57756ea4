/** Who a request acts as, and the API keys that can stand for a user. */
export type Principal =
  | { kind: 'user'; username: string; roles: string[] }
  | { kind: 'api_key'; username: string; key: ApiKeyRecord };

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The secret half; compared on each request. */
  key: string;
  owner: string;
  created: number;
  expiration?: number;
  invalidated: boolean;
  /** Empty: the key has its owner's privileges. */
  roleDescriptors: Record<string, RoleDescriptor>;
}

export interface RoleDescriptor {
  cluster: string[];
  indices: { names: string[]; privileges: string[] }[];
}
