import type { Config } from '@sitelens/config';
import type { Logger } from '@sitelens/telemetry';
import type { UrlCheckOptions } from './url-policy';

/**
 * The URL policy a deployment's config describes: local mode reaches everything; hosted mode public
 * unicast plus EGRESS_ALLOW. Each refusal's reason is logged (the client only sees one message).
 */
export function urlPolicyOf(config: Pick<Config, 'allowPrivateUrls' | 'egressAllow'>, logger?: Pick<Logger, 'info'>): UrlCheckOptions {
  return {
    allowPrivate: config.allowPrivateUrls,
    allow: config.egressAllow,
    onRefused: logger ? (detail) => logger.info(detail, 'egress refused') : undefined,
  };
}
