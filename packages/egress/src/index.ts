/**
 * @sitelens/egress: what Sitelens may connect to. The URL policy (public unicast only in hosted
 * mode, EGRESS_ALLOW on top) used by safe fetch, webhooks and the gateway, and the egress proxy
 * every connection of the browser goes through.
 */
export { blockedReason, isBlockedAddress, parseIpLiteral } from './address-ranges';
export {
  answerLookup,
  assertPublicUrl,
  checkHostResolves,
  createSafeLookup,
  createUrlGuard,
  systemResolver,
  type AddressPolicy,
  type EgressAllowList,
  type RefusalDetail,
  type ResolvedAddress,
  type Resolver,
  type SafeLookup,
  type UrlCheckOptions,
} from './url-policy';
export { startEgressProxy, type EgressProxy, type EgressProxyOptions, type EgressProxyStats } from './egress-proxy';
export { urlPolicyOf } from './policy-from-config';
export {
  deliverWebhook,
  signWebhookBody,
  SIGNATURE_HEADER,
  type WebhookDelivery,
  type WebhookOptions,
  type WebhookOutcome,
} from './webhook';
