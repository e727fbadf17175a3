/**
 * The proxy variables, as curl and Go read them: `HTTPS_PROXY` for https targets,
 * `HTTP_PROXY` for http ones (and for https when no HTTPS_PROXY is set), `NO_PROXY`
 * (comma- or space-separated host names, `.domain` suffixes, `*`) for the exceptions;
 * lower-case spellings win over upper-case ones. Pure: the configuration reads them
 * through here. Proxy URLs may carry `user:password@`: they are credentials, so
 * `describeProxy` shows them without the password.
 */
/** The proxy variables, empty when unset. */
export interface ProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

export const NO_PROXY_SETTINGS: ProxySettings = { httpProxy: '', httpsProxy: '', noProxy: '' };

type Env = Readonly<Record<string, string | undefined>>;

/** The settings from the environment; the lower-case variable wins when both are set. */
export function proxySettingsFrom(env: Env): ProxySettings {
  const pick = (name: string): string => (env[name.toLowerCase()] || env[name] || '').trim();
  return { httpProxy: pick('HTTP_PROXY'), httpsProxy: pick('HTTPS_PROXY'), noProxy: pick('NO_PROXY') };
}

/** True when a proxy is configured for either scheme. */
export function proxyConfigured(settings: ProxySettings): boolean {
  return settings.httpProxy !== '' || settings.httpsProxy !== '';
}

/** Why a proxy URL cannot be used, or undefined when it can (http, https or socks5 with a host). */
export function proxyUrlProblem(text: string): string | undefined {
  if (text === '') return undefined;
  if (!URL.canParse(text)) return 'not a URL (want http://host:port)';
  const url = new URL(text);
  if (!['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol)) {
    return `unsupported scheme ${url.protocol} (want http, https or socks5)`;
  }
  if (url.hostname === '') return 'no host';
  return undefined;
}

/** A proxy URL fit for a log line: the password replaced. */
export function describeProxy(text: string): string | undefined {
  if (text === '') return undefined;
  if (!URL.canParse(text)) return '(unparseable)';
  const url = new URL(text);
  if (url.password !== '') url.password = 'redacted';
  return url.href;
}
