import type { EngineModule } from '../driver';
import { typesenseConnectionSettings, UNTRUSTED_CERTIFICATE_ADVICE } from './connection-settings';
import { TypesenseDriver } from './driver';

export const typesenseModule: EngineModule = {
  displayName: 'Typesense',
  untrustedCertificateAdvice: UNTRUSTED_CERTIFICATE_ADVICE,
  connectionSettings: typesenseConnectionSettings,
  createDriver: (transport) => new TypesenseDriver(transport),
};
