/**
 * A very small browser for driving the Connect sandbox's pages over real HTTP: a cookie jar, no
 * automatic redirects (tests read each Location), and helpers to read forms out of the HTML.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.request(url, { method: 'GET' });
  }

  async post(url: string, form: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** Follows a Location header relative to the response's URL. */
  async follow(from: Response, base: string): Promise<Response> {
    const location = from.headers.get('location');
    if (!location) throw new Error(`No Location on a ${from.status} response`);
    return this.get(new URL(location, base).href);
  }

  clearCookies(): void {
    this.cookies.clear();
  }

  cookieNames(): string[] {
    return [...this.cookies.keys()];
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Plants a cookie, as an attacker who can write cookies for the provider's host would. */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private async request(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size)
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      const expired = attributes.some(
        (attribute) => /^max-age=0$/i.test(attribute) || /^expires=.*1970/i.test(attribute),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const ENTITIES: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&' };

function unescapeHtml(text: string): string {
  return text.replace(/&(?:#(\d+)|(quot|lt|gt|amp));/g, (_, code: string | undefined, name: string | undefined) =>
    code ? String.fromCharCode(Number(code)) : ENTITIES[name!]!,
  );
}

/** The hidden inputs of the first form in `html` that posts to `action`. */
export function formFields(html: string, action: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`No form posting to ${action} in:\n${html}`);
  const fields: Record<string, string> = {};
  for (const input of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[input[1]!] = unescapeHtml(input[2]!);
  return fields;
}

/** The parameters in a redirect's fragment. */
export function fragmentOf(response: Response): URLSearchParams {
  const location = response.headers.get('location');
  if (!location) throw new Error(`Expected a redirect, got ${response.status}`);
  return new URLSearchParams(new URL(location).hash.slice(1));
}
