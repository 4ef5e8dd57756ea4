import { PlatformKeyring, type SecretStore } from './keyring';
import { ProfileStore } from './profile-store';

/** What the profile magics use: the profiles file and the keyring (both replaceable in tests). */
export interface ProfileServices {
  store: ProfileStore;
  keyring: SecretStore;
}

export function defaultProfileServices(): ProfileServices {
  return { store: new ProfileStore(), keyring: new PlatformKeyring() };
}
