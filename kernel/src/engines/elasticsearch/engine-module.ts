import type { EngineModule } from '../../driver-core/engine-module';
import {
  elasticsearchConnectionSettings,
  UNTRUSTED_CERTIFICATE_ADVICE
} from './connection-settings';
import { elasticsearchOptions } from './connect-options';
import { ElasticsearchDriver } from './driver';

export const elasticsearchModule: EngineModule = {
  untrustedCertificateAdvice: UNTRUSTED_CERTIFICATE_ADVICE,
  largeAnswerAdvice:
    'Page it with size and from (or search_after past 10,000 hits), keep only the parts needed with filter_path=<paths> in the query string (for example filter_path=hits.hits._id,hits.hits._source), or only some fields of each hit with "_source": ["field", ...] in the body',
  connectionSettings: elasticsearchConnectionSettings,
  createDriver(transport, args) {
    const { compat } = elasticsearchOptions(args);
    return new ElasticsearchDriver(
      transport,
      compat === undefined ? undefined : Number(compat)
    );
  }
};
