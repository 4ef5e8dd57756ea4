import type { EngineModule } from '../driver';
import { elasticsearchConnectionSettings, UNTRUSTED_CERTIFICATE_ADVICE } from './connection-settings';
import { ElasticsearchDriver } from './driver';

export const elasticsearchModule: EngineModule = {
  displayName: 'Elasticsearch',
  untrustedCertificateAdvice: UNTRUSTED_CERTIFICATE_ADVICE,
  connectionSettings: elasticsearchConnectionSettings,
  createDriver: (transport) => new ElasticsearchDriver(transport),
};
