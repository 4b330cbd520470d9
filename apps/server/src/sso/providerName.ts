/**
 * The identity provider's name when the administrator gives none: well-known SAML hosts get the product
 * name people know them by; any other host is named by its host name (docs/decisions, IdP name).
 */
const KNOWN: readonly [RegExp, string][] = [
  [/(^|\.)login\.microsoftonline\.(com|us)$/, 'AzureAD'],
  [/(^|\.)(okta|oktapreview|okta-emea)\.com$/, 'Okta'],
  [/(^|\.)onelogin\.com$/, 'OneLogin'],
  [/^accounts\.google\.com$/, 'Google'],
  [/(^|\.)auth0\.com$/, 'Auth0'],
  [/(^|\.)pingone\.(com|eu|asia|ca)$/, 'PingOne'],
  [/(^|\.)jumpcloud\.com$/, 'JumpCloud'],
  [/(^|\.)duosecurity\.com$/, 'Duo'],
];

export function identityProviderName(signInEndpoint: string): string {
  const host = new URL(signInEndpoint).hostname.toLowerCase();
  for (const [pattern, name] of KNOWN) if (pattern.test(host)) return name;
  return host;
}
