import type { EngineModule } from '../../driver-core/engine-module';
import {
  typesenseConnectionSettings,
  UNTRUSTED_CERTIFICATE_ADVICE
} from './connection-settings';
import { TypesenseDriver } from './driver';

export const typesenseModule: EngineModule = {
  untrustedCertificateAdvice: UNTRUSTED_CERTIFICATE_ADVICE,
  largeAnswerAdvice:
    'Page it with per_page and page, keep only some fields of each hit with include_fields=<fields> (or leave some out with exclude_fields=<fields>), or narrow it with filter_by',
  connectionSettings: typesenseConnectionSettings,
  createDriver: transport => new TypesenseDriver(transport)
};
